import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
class HttpError extends Error {
    status;
    reason;
    constructor(status, message, reason = "invalid") {
        super(message);
        this.status = status;
        this.reason = reason;
    }
}
const IMAGES = ["projects/debian-cloud/global/images/family/debian-12", "projects/debian-cloud/global/images/debian-12-bookworm-v20240110"];
const MACHINE_TYPES = ["e2-micro", "e2-small", "e2-medium"];
const NETWORKS = ["default", "lab"];
/** The path of a resource, from a full URL or a partial one (`zones/z/machineTypes/e2-small`). */
function tail(url) {
    return (url ?? "").replace(/^https:\/\/(www|compute)\.googleapis\.com\/compute\/v1\//, "");
}
function operation(kind, target) {
    return {
        kind: "compute#operation",
        name: `operation-${randomBytes(6).toString("hex")}`,
        operationType: kind,
        targetLink: target,
        status: "RUNNING",
        progress: 0,
    };
}
export async function startGceDouble(options) {
    const project = options.project ?? "bench-project";
    const zone = options.zone ?? "europe-west1-b";
    const pollsUntilRunning = options.pollsUntilRunning ?? 1;
    const token = `ya29.${randomBytes(24).toString("base64url")}`;
    const instances = new Map();
    /** As the API shows them (`allowed` as it was given). */
    const firewalls = new Map();
    const failures = new Map();
    let failNextBoot = false;
    let held = false;
    let ipCounter = 2;
    const maybeFail = (op) => {
        const f = failures.get(op);
        if (f && f.after > 0)
            f.after -= 1;
        else if (f) {
            failures.delete(op);
            throw new HttpError(f.status, f.message, f.status === 403 ? "quotaExceeded" : "backendError");
        }
    };
    const status = (i) => {
        if (i.deleting)
            return "STOPPING";
        if (i.polls < pollsUntilRunning)
            return i.polls === 0 ? "PROVISIONING" : "STAGING";
        return i.failBoot ? "TERMINATED" : "RUNNING";
    };
    const view = (i) => {
        const s = status(i);
        return {
            kind: "compute#instance",
            name: i.name,
            status: s,
            statusMessage: i.failBoot && s === "TERMINATED" ? "Instance failed to start: ZONE_RESOURCE_POOL_EXHAUSTED" : undefined,
            machineType: `https://www.googleapis.com/compute/v1/projects/${project}/zones/${zone}/machineTypes/${i.machineType}`,
            labels: i.labels,
            tags: { items: i.tags },
            metadata: { items: [{ key: "ssh-keys", value: i.sshKeys }] },
            networkInterfaces: [
                {
                    networkIP: i.ip,
                    accessConfigs: i.externalIp ? [{ type: "ONE_TO_ONE_NAT", name: "External NAT", natIP: s === "RUNNING" ? options.sshHost : undefined }] : [],
                },
            ],
        };
    };
    const createInstance = (body) => {
        const spec = body;
        const name = spec.name ?? "";
        if (!/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/.test(name))
            throw new HttpError(400, `Invalid value for field 'resource.name': '${name}'.`);
        if (instances.has(name))
            throw new HttpError(409, `The resource 'projects/${project}/zones/${zone}/instances/${name}' already exists`, "alreadyExists");
        const type = /machineTypes\/([^/]+)$/.exec(tail(spec.machineType))?.[1];
        if (!type || !MACHINE_TYPES.includes(type))
            throw new HttpError(400, `Invalid value for field 'resource.machineType': '${spec.machineType}'.`);
        const image = tail(spec.disks?.[0]?.initializeParams?.sourceImage);
        if (!IMAGES.includes(image))
            throw new HttpError(404, `The resource '${image}' was not found`, "notFound");
        const nic = spec.networkInterfaces?.[0];
        const network = /networks\/([^/]+)$/.exec(tail(nic?.network ?? "global/networks/default"))?.[1];
        if (!network || !NETWORKS.includes(network))
            throw new HttpError(404, `The resource 'projects/${project}/global/networks/${network}' was not found`, "notFound");
        for (const [key, value] of Object.entries(spec.labels ?? {})) {
            if (!/^[a-z][a-z0-9_-]{0,62}$/.test(key) || !/^[a-z0-9_-]{0,63}$/.test(value))
                throw new HttpError(400, `Invalid value for field 'resource.labels': '${key}'.`);
        }
        const i = {
            name,
            machineType: type,
            labels: spec.labels ?? {},
            tags: spec.tags?.items ?? [],
            sshKeys: spec.metadata?.items?.find((m) => m.key === "ssh-keys")?.value ?? "",
            externalIp: !!nic?.accessConfigs?.some((a) => a.type === "ONE_TO_ONE_NAT"),
            polls: 0,
            failBoot: failNextBoot,
            deleting: false,
            ip: `10.128.0.${ipCounter++}`,
        };
        failNextBoot = false;
        instances.set(name, i);
        return i;
    };
    /** `user:ssh-rsa AAAA... comment` lines: the key of each. */
    const keysOf = (sshKeys) => sshKeys
        .split("\n")
        .map((line) => line.slice(line.indexOf(":") + 1).trim())
        .filter(Boolean);
    const readBody = async (req) => {
        const chunks = [];
        for await (const chunk of req)
            chunks.push(chunk);
        const text = Buffer.concat(chunks).toString("utf8");
        return text ? JSON.parse(text) : {};
    };
    const route = async (req, path, query) => {
        const m = req.method;
        const base = `/compute/v1/projects/${project}`;
        let match;
        if (path === `${base}/zones/${zone}/instances`) {
            if (m === "POST") {
                maybeFail("insertInstance");
                const i = createInstance(await readBody(req));
                for (const key of keysOf(i.sshKeys))
                    await options.guestAgent?.(key);
                return operation("insert", `${base}/zones/${zone}/instances/${i.name}`);
            }
            if (m === "GET") {
                maybeFail("listInstances");
                // The one filter form used: `labels.KEY=VALUE`.
                const filter = /^labels\.([a-z0-9_-]+)=(\S+)$/.exec(query.get("filter") ?? "");
                const items = [...instances.values()].filter((i) => !filter || i.labels[filter[1]] === filter[2]).map(view);
                return { kind: "compute#instanceList", items };
            }
        }
        if ((match = new RegExp(`^${base}/zones/${zone}/instances/([^/]+)$`).exec(path))) {
            const i = instances.get(match[1]);
            if (m === "GET") {
                maybeFail("getInstance");
                if (!i)
                    throw new HttpError(404, `The resource '${path.slice(13)}' was not found`, "notFound");
                if (!held || i.polls >= pollsUntilRunning)
                    i.polls += 1;
                const shown = view(i);
                // A deleted instance shows STOPPING once more, then is gone.
                if (i.deleting)
                    instances.delete(i.name);
                return shown;
            }
            if (m === "DELETE") {
                maybeFail("deleteInstance");
                if (!i)
                    throw new HttpError(404, `The resource '${path.slice(13)}' was not found`, "notFound");
                i.deleting = true;
                return operation("delete", path);
            }
        }
        if (path === `${base}/global/firewalls`) {
            if (m === "POST") {
                maybeFail("insertFirewall");
                const spec = (await readBody(req));
                const name = spec.name ?? "";
                if (firewalls.has(name))
                    throw new HttpError(409, `The resource 'projects/${project}/global/firewalls/${name}' already exists`, "alreadyExists");
                if ((spec.direction ?? "INGRESS") !== "INGRESS")
                    throw new HttpError(400, `Not modelled here: a ${spec.direction} firewall.`);
                if (!spec.allowed?.length)
                    throw new HttpError(400, "Invalid value for field 'resource.allowed': ''. At least one rule is required.");
                for (const a of spec.allowed) {
                    if (!a.IPProtocol)
                        throw new HttpError(400, "Invalid value for field 'resource.allowed[0].IPProtocol': ''.");
                    // Ports mean something only for these.
                    if (a.ports?.length && !["tcp", "udp", "sctp"].includes(a.IPProtocol)) {
                        throw new HttpError(400, `Invalid value for field 'resource.allowed[0].ports[0]': '${a.ports[0]}'. Ports may only be specified for rules whose protocol is one of [TCP, UDP, SCTP].`);
                    }
                }
                const sourceTags = spec.sourceTags ?? [];
                firewalls.set(name, {
                    name,
                    description: spec.description ?? "",
                    network: tail(spec.network),
                    direction: "INGRESS",
                    allowed: spec.allowed.map((a) => ({ IPProtocol: a.IPProtocol, ...(a.ports?.length ? { ports: [...a.ports] } : {}) })),
                    // An ingress firewall given no source at all is open to every address.
                    sourceRanges: spec.sourceRanges ?? (sourceTags.length ? [] : ["0.0.0.0/0"]),
                    sourceTags,
                    targetTags: spec.targetTags ?? [],
                });
                return operation("insert", `${base}/global/firewalls/${name}`);
            }
            if (m === "GET") {
                maybeFail("listFirewalls");
                return { kind: "compute#firewallList", items: [...firewalls.values()].map((f) => ({ kind: "compute#firewall", ...f })) };
            }
        }
        if (m === "DELETE" && (match = new RegExp(`^${base}/global/firewalls/([^/]+)$`).exec(path))) {
            maybeFail("deleteFirewall");
            if (!firewalls.delete(match[1]))
                throw new HttpError(404, `The resource '${path.slice(13)}' was not found`, "notFound");
            return operation("delete", path);
        }
        throw new HttpError(404, `No such method: ${m} ${path}`, "notFound");
    };
    const server = createServer((req, res) => {
        const url = new URL(req.url ?? "/", "http://double");
        const reply = (code, body) => {
            res.writeHead(code, { "Content-Type": "application/json" });
            res.end(JSON.stringify(body));
        };
        if (req.headers.authorization !== `Bearer ${token}`) {
            return reply(401, {
                error: { code: 401, message: "Request is missing required authentication credential.", status: "UNAUTHENTICATED" },
            });
        }
        route(req, url.pathname, url.searchParams).then((body) => reply(200, body), (e) => {
            const status = e instanceof HttpError ? e.status : 500;
            const message = e instanceof Error ? e.message : String(e);
            const reason = e instanceof HttpError ? e.reason : "backendError";
            reply(status, { error: { code: status, message, errors: [{ message, domain: "global", reason }] } });
        });
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = server.address().port;
    // What google-auth-library's AuthClient offers the REST transport: headers, and a fetch that adds them.
    const authClient = {
        getRequestHeaders: async () => new Headers({ Authorization: `Bearer ${token}` }),
        fetch: (url, init) => fetch(url, {
            method: init.method,
            body: init.body,
            headers: { ...Object.fromEntries(new Headers(init.headers)), Authorization: `Bearer ${token}` },
        }),
    };
    return {
        project,
        zone,
        clientOptions: { apiEndpoint: "127.0.0.1", port, protocol: "http", authClient },
        inventory: () => ({
            instances: [...instances.values()].map((i) => ({
                name: i.name,
                status: status(i),
                labels: { ...i.labels },
                tags: [...i.tags],
                sshKeys: i.sshKeys,
                externalIp: i.externalIp,
                networkIP: i.ip,
            })),
            firewalls: [...firewalls.values()].map(({ direction: _ingress, allowed, ...f }) => ({
                ...structuredClone(f),
                allowed: allowed.flatMap((a) => (a.ports ? a.ports.map((p) => `${a.IPProtocol}/${p}`) : [a.IPProtocol])),
            })),
        }),
        failNext(op, error = {}, after = 0) {
            if (op === "instanceBoot")
                failNextBoot = true;
            else
                failures.set(op, { status: error.status ?? 500, message: error.message ?? `Injected failure of ${op}`, after });
        },
        holdBoot(hold) {
            held = hold;
        },
        seedInstance(labels) {
            const i = createInstance({
                name: `seeded-${randomBytes(4).toString("hex")}`,
                machineType: "zones/z/machineTypes/e2-micro",
                labels,
                disks: [{ initializeParams: { sourceImage: IMAGES[0] } }],
            });
            i.polls = pollsUntilRunning;
            return i.name;
        },
        token,
        stop: () => new Promise((resolve, reject) => {
            server.closeAllConnections();
            server.close((e) => (e ? reject(e) : resolve()));
        }),
    };
}
//# sourceMappingURL=gce-double.js.map