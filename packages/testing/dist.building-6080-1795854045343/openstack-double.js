import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:http";
/** Python's repr() of a str: the quote it picks, backslashes doubled, that quote and control characters escaped. */
function pythonRepr(s) {
    const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
    let out = "";
    for (const c of s) {
        const code = c.codePointAt(0);
        if (c === "\\" || c === quote)
            out += `\\${c}`;
        else if (c === "\n")
            out += "\\n";
        else if (c === "\r")
            out += "\\r";
        else if (c === "\t")
            out += "\\t";
        else if (code < 0x20 || (code >= 0x7f && code < 0xa0))
            out += `\\x${code.toString(16).padStart(2, "0")}`;
        else
            out += c;
    }
    return quote + out + quote;
}
/**
 * Credentials as a debugging Python service puts them into an error message: the repr of the
 * request's auth dict, the JSON body, a form-encoded query string, a Basic authorization
 * header and the base64 of the password.
 */
export function credentialEcho(user, password) {
    const form = new URLSearchParams({ user, password }).toString();
    const basic = Buffer.from(`${user}:${password}`).toString("base64");
    return [
        `request: {'auth': {'user': ${pythonRepr(user)}, 'password': ${pythonRepr(password)}}}`,
        `body: ${JSON.stringify({ auth: { password } })}`,
        `query: ${form}`,
        `headers: {'Authorization': 'Basic ${basic}'}`,
        `password_b64: ${Buffer.from(password).toString("base64")}`,
    ].join("; ");
}
class HttpError extends Error {
    status;
    constructor(status, message) {
        super(message);
        this.status = status;
    }
}
const NOVA_KIND = {
    400: "badRequest",
    401: "unauthorized",
    403: "forbidden",
    404: "itemNotFound",
    409: "conflictingRequest",
    413: "overLimit",
};
export async function startOpenStackDouble(options) {
    const username = options.username ?? "bench-user";
    const password = options.password ?? "s3cret-Passw0rd";
    const project = options.project ?? "benchmarks";
    const domain = options.domain ?? "Default";
    const region = options.region ?? "RegionOne";
    const pollsUntilActive = options.pollsUntilActive ?? 1;
    const fixedIpOf = (n) => (typeof options.fixedIp === "function" ? options.fixedIp(n) : (options.fixedIp ?? options.sshHost));
    let serversMade = 0;
    const tokens = new Set();
    const issued = [];
    const failures = new Map();
    /** The fault message of the next server created, which goes into ERROR; none when it builds fine. */
    let failNextBuild;
    /** While set, servers being built stay in BUILD. */
    let held = false;
    const flavors = [
        { id: "1", name: "m1.small", vcpus: 1, ram: 2048, disk: 20 },
        { id: "2", name: "m1.medium", vcpus: 2, ram: 4096, disk: 40 },
    ];
    const images = [
        { id: randomUUID(), name: "debian-12", status: "active", created_at: "2024-01-01T00:00:00Z" },
        { id: randomUUID(), name: "debian-12", status: "active", created_at: "2024-06-01T00:00:00Z" },
        { id: randomUUID(), name: "ubuntu-22.04", status: "active", created_at: "2024-03-01T00:00:00Z" },
    ];
    const networks = [
        { id: randomUUID(), name: "private", "router:external": false },
        { id: randomUUID(), name: "lab", "router:external": false },
        { id: randomUUID(), name: "public", "router:external": true },
    ];
    /** The project's groups: the two it came with, and those made through the API. */
    const securityGroups = new Map(["default", "ssh"].map((name) => {
        const id = randomUUID();
        return [id, { id, name, description: `${name} (project)`, rules: [], preset: true }];
    }));
    /** A group by id or, as Nova also takes, by name. */
    const groupNamed = (ref) => securityGroups.get(ref) ?? [...securityGroups.values()].find((g) => g.name === ref);
    const keypairs = new Map();
    const servers = new Map();
    const floatingIps = new Map();
    /** Throws the failure injected for this operation, echoing `credentials` (the double's own by default) if asked. */
    const maybeFail = (operation, credentials = { user: username, password }) => {
        const failure = failures.get(operation);
        if (failure && failure.after > 0)
            failure.after -= 1;
        else if (failure) {
            failures.delete(operation);
            const echo = failure.echoCredentials ? ` (${credentialEcho(credentials.user, credentials.password)})` : "";
            throw new HttpError(failure.status, failure.message + echo);
        }
    };
    const serverView = (s) => {
        const fips = [...floatingIps.values()].filter((f) => f.port_id === `port-${s.id}`);
        const status = s.polls >= pollsUntilActive ? (s.failBuild !== undefined ? "ERROR" : "ACTIVE") : "BUILD";
        const network = networks.find((n) => n.id === s.networkId);
        return {
            id: s.id,
            name: s.name,
            status,
            "OS-EXT-STS:task_state": s.deleting ? "deleting" : null,
            key_name: s.keyName,
            metadata: s.metadata,
            image: { id: s.imageRef },
            flavor: { id: s.flavorRef },
            addresses: status === "BUILD"
                ? {}
                : {
                    [network.name]: [
                        { addr: s.fixedIp, version: 4, "OS-EXT-IPS:type": "fixed" },
                        ...fips.map((f) => ({ addr: f.floating_ip_address, version: 4, "OS-EXT-IPS:type": "floating" })),
                    ],
                },
            fault: status === "ERROR" ? { code: 500, message: s.failBuild } : undefined,
        };
    };
    const createServerState = (body) => {
        const spec = (body.server ?? {});
        if (!images.some((i) => i.id === spec.imageRef))
            throw new HttpError(400, `Image ${spec.imageRef} could not be found.`);
        if (!flavors.some((f) => f.id === spec.flavorRef))
            throw new HttpError(400, `Flavor ${spec.flavorRef} could not be found.`);
        if (spec.key_name && !keypairs.has(spec.key_name))
            throw new HttpError(400, `Invalid key_name provided.`);
        for (const g of spec.security_groups ?? []) {
            if (!groupNamed(g.name ?? ""))
                throw new HttpError(400, `Security group ${g.name} not found for project.`);
        }
        const networkId = spec.networks?.[0]?.uuid ?? networks.find((n) => !n["router:external"]).id;
        if (!networks.some((n) => n.id === networkId))
            throw new HttpError(400, `Network ${networkId} could not be found.`);
        const s = {
            id: randomUUID(),
            name: spec.name ?? "server",
            imageRef: spec.imageRef,
            flavorRef: spec.flavorRef,
            keyName: spec.key_name ?? "",
            metadata: spec.metadata ?? {},
            networkId,
            securityGroups: (spec.security_groups ?? []).map((g) => g.name),
            fixedIp: fixedIpOf(serversMade++),
            polls: 0,
            failBuild: failNextBuild,
            deleting: false,
        };
        failNextBuild = undefined;
        servers.set(s.id, s);
        return s;
    };
    const readBody = async (req) => {
        const chunks = [];
        for await (const chunk of req)
            chunks.push(chunk);
        const text = Buffer.concat(chunks).toString("utf8");
        if (!text)
            return {};
        try {
            return JSON.parse(text);
        }
        catch {
            throw new HttpError(400, "Malformed request body");
        }
    };
    const keystone = async (req, path) => {
        if (req.method === "POST" && path === "/v3/auth/tokens") {
            const body = (await readBody(req));
            const user = body.auth?.identity?.password?.user;
            // What Keystone was sent, not what it expects, is what a careless one echoes.
            maybeFail("auth", { user: String(user?.name ?? ""), password: String(user?.password ?? "") });
            const scope = body.auth?.scope?.project;
            if (!body.auth?.identity?.methods?.includes("password") || user?.name !== username || user?.password !== password || user?.domain?.name !== domain) {
                throw new HttpError(401, "The request you have made requires authentication.");
            }
            if (scope?.name !== project || scope?.domain?.name !== domain)
                throw new HttpError(401, "The request you have made requires authentication.");
            const token = `gAAAA${randomBytes(24).toString("base64url")}`;
            tokens.add(token);
            issued.push(token);
            const endpoint = (type, name, path) => ({
                type,
                name,
                endpoints: [
                    { interface: "public", region_id: region, region, url: `${base}${path}` },
                    { interface: "internal", region_id: region, region, url: `http://internal.invalid${path}` },
                ],
            });
            return {
                status: 201,
                headers: { "X-Subject-Token": token },
                body: {
                    token: {
                        methods: ["password"],
                        expires_at: new Date(Date.now() + 3600_000).toISOString(),
                        project: { name: project, id: "p-1", domain: { name: domain } },
                        user: { name: username, id: "u-1", domain: { name: domain } },
                        catalog: [
                            endpoint("compute", "nova", "/compute/v2.1"),
                            endpoint("network", "neutron", "/network"),
                            endpoint("image", "glance", "/image"),
                            endpoint("identity", "keystone", "/v3"),
                        ],
                    },
                },
            };
        }
        throw new HttpError(404, "The resource could not be found.");
    };
    const nova = async (req, path) => {
        const m = req.method;
        let match;
        if (m === "GET" && (path === "/flavors/detail" || path === "/flavors")) {
            maybeFail("listFlavors");
            return { body: { flavors } };
        }
        if (m === "GET" && path === "/os-keypairs") {
            maybeFail("listKeypairs");
            return { body: { keypairs: [...keypairs.values()].map((k) => ({ keypair: { name: k.name, public_key: k.public_key } })) } };
        }
        if (m === "POST" && path === "/os-keypairs") {
            maybeFail("createKeypair");
            const body = (await readBody(req));
            const name = body.keypair?.name ?? "";
            if (!name)
                throw new HttpError(400, "Keypair data is invalid: name is required");
            if (keypairs.has(name))
                throw new HttpError(409, `Key pair '${name}' already exists.`);
            const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
            const publicText = body.keypair?.public_key ?? `ssh-rsa ${publicKey.export({ type: "spki", format: "der" }).toString("base64")} ${name}`;
            keypairs.set(name, { name, public_key: publicText, imported: !!body.keypair?.public_key });
            const generated = body.keypair?.public_key ? undefined : (options.privateKey ?? privateKey.export({ type: "pkcs1", format: "pem" }).toString());
            return { body: { keypair: { name, public_key: publicText, fingerprint: "00:11", user_id: "u-1", private_key: generated } } };
        }
        if (m === "DELETE" && (match = /^\/os-keypairs\/([^/]+)$/.exec(path))) {
            maybeFail("deleteKeypair");
            const name = decodeURIComponent(match[1]);
            if (!keypairs.delete(name))
                throw new HttpError(404, `Keypair ${name} not found for user u-1`);
            return { status: 202 };
        }
        if (m === "POST" && path === "/servers") {
            maybeFail("createServer");
            const s = createServerState(await readBody(req));
            return { status: 202, body: { server: { id: s.id, links: [], adminPass: "not-used" } } };
        }
        if (m === "GET" && (path === "/servers/detail" || path === "/servers")) {
            maybeFail("listServers");
            return { body: { servers: [...servers.values()].map(serverView) } };
        }
        if ((match = /^\/servers\/([^/]+)$/.exec(path))) {
            const s = servers.get(match[1]);
            if (m === "GET") {
                maybeFail("getServer");
                if (!s)
                    throw new HttpError(404, "Instance could not be found.");
                if (!held)
                    s.polls += 1;
                const view = serverView(s);
                // A deleted server shows once more (task_state deleting), then is gone.
                if (s.deleting)
                    servers.delete(s.id);
                return { body: { server: view } };
            }
            if (m === "DELETE") {
                maybeFail("deleteServer");
                if (!s)
                    throw new HttpError(404, "Instance could not be found.");
                s.deleting = true;
                for (const f of floatingIps.values())
                    if (f.port_id === `port-${s.id}`)
                        f.port_id = null;
                return { status: 204 };
            }
        }
        throw new HttpError(404, "The resource could not be found.");
    };
    const glance = async (req, path, query) => {
        let match;
        if (req.method === "GET" && path === "/v2/images") {
            maybeFail("listImages");
            const name = query.get("name");
            const status = query.get("status");
            return { body: { images: images.filter((i) => (!name || i.name === name) && (!status || i.status === status)) } };
        }
        if (req.method === "GET" && (match = /^\/v2\/images\/([^/]+)$/.exec(path))) {
            maybeFail("getImage");
            const image = images.find((i) => i.id === match[1]);
            if (!image)
                throw new HttpError(404, `No image found with ID ${match[1]}`);
            return { body: image };
        }
        throw new HttpError(404, "The resource could not be found.");
    };
    const neutron = async (req, path, query) => {
        const m = req.method;
        let match;
        if (m === "GET" && path === "/v2.0/networks") {
            maybeFail("listNetworks");
            const name = query.get("name");
            const external = query.get("router:external");
            return {
                body: {
                    networks: networks.filter((n) => (!name || n.name === name) && (external === null || String(n["router:external"]) === external)),
                },
            };
        }
        if (m === "GET" && path === "/v2.0/ports") {
            maybeFail("listPorts");
            const device = query.get("device_id");
            const ports = [...servers.values()]
                .filter((s) => !device || s.id === device)
                .map((s) => ({ id: `port-${s.id}`, device_id: s.id, network_id: s.networkId, fixed_ips: [{ ip_address: s.fixedIp }] }));
            return { body: { ports } };
        }
        if (m === "POST" && path === "/v2.0/floatingips") {
            maybeFail("createFloatingIp");
            const body = (await readBody(req));
            const spec = body.floatingip ?? {};
            const network = networks.find((n) => n.id === spec.floating_network_id);
            if (!network?.["router:external"])
                throw new HttpError(400, `Network ${spec.floating_network_id} is not a valid external network`);
            if (spec.port_id && ![...servers.values()].some((s) => `port-${s.id}` === spec.port_id)) {
                throw new HttpError(404, `Port ${spec.port_id} could not be found.`);
            }
            const fip = {
                id: randomUUID(),
                floating_ip_address: options.sshHost,
                floating_network_id: network.id,
                port_id: spec.port_id ?? null,
                description: spec.description ?? "",
            };
            floatingIps.set(fip.id, fip);
            return { status: 201, body: { floatingip: fip } };
        }
        if (m === "GET" && path === "/v2.0/security-groups") {
            maybeFail("listSecurityGroups");
            return { body: { security_groups: [...securityGroups.values()].map(({ id, name, description }) => ({ id, name, description })) } };
        }
        if (m === "POST" && path === "/v2.0/security-groups") {
            maybeFail("createSecurityGroup");
            const body = (await readBody(req));
            const id = randomUUID();
            const group = {
                id,
                name: body.security_group?.name ?? "",
                description: body.security_group?.description ?? "",
                rules: [],
                preset: false,
            };
            securityGroups.set(id, group);
            return { status: 201, body: { security_group: { id, name: group.name, description: group.description } } };
        }
        if (m === "DELETE" && (match = /^\/v2\.0\/security-groups\/([^/]+)$/.exec(path))) {
            maybeFail("deleteSecurityGroup");
            const group = securityGroups.get(match[1]);
            if (!group)
                throw new HttpError(404, `Security group ${match[1]} does not exist`);
            // A server keeps its port, and with it the group, until it is gone.
            if ([...servers.values()].some((sv) => sv.securityGroups.some((ref) => groupNamed(ref)?.id === group.id))) {
                throw new HttpError(409, `Security Group ${group.id} in use.`);
            }
            securityGroups.delete(group.id);
            return { status: 204 };
        }
        if (m === "POST" && path === "/v2.0/security-group-rules") {
            maybeFail("createSecurityGroupRule");
            const body = (await readBody(req));
            const r = body.security_group_rule ?? {};
            const group = securityGroups.get(r.security_group_id ?? "");
            if (!group)
                throw new HttpError(404, `Security group ${r.security_group_id} does not exist`);
            if (r.remote_ip_prefix && r.remote_group_id)
                throw new HttpError(400, "Only remote_ip_prefix or remote_group_id may be provided.");
            if (r.remote_group_id && !securityGroups.has(r.remote_group_id))
                throw new HttpError(404, `Security group ${r.remote_group_id} does not exist`);
            if (!r.protocol && (r.port_range_min != null || r.port_range_max != null))
                throw new HttpError(400, "Must also specify protocol if port range is given.");
            const ethertype = r.ethertype ?? "IPv4";
            // Neither remote: from anywhere.
            const remote = r.remote_group_id ?? r.remote_ip_prefix ?? (ethertype === "IPv6" ? "::/0" : "0.0.0.0/0");
            const min = r.port_range_min ?? undefined;
            const max = r.port_range_max ?? min;
            const ports = min === undefined ? "" : `/${min}${max !== min ? `-${max}` : ""}`;
            const rule = `${r.direction === "ingress" ? "" : `${r.direction}:`}${ethertype === "IPv4" ? "" : `${ethertype} `}${r.protocol ?? "all"}${ports} from ${remote}`;
            if (group.rules.includes(rule))
                throw new HttpError(409, "Security group rule already exists.");
            group.rules.push(rule);
            return { status: 201, body: { security_group_rule: { id: randomUUID(), ethertype, ...r } } };
        }
        if (m === "GET" && path === "/v2.0/floatingips") {
            maybeFail("listFloatingIps");
            return { body: { floatingips: [...floatingIps.values()] } };
        }
        if (m === "DELETE" && (match = /^\/v2\.0\/floatingips\/([^/]+)$/.exec(path))) {
            maybeFail("deleteFloatingIp");
            if (!floatingIps.delete(match[1]))
                throw new HttpError(404, `Floating IP ${match[1]} could not be found.`);
            return { status: 204 };
        }
        throw new HttpError(404, "The resource could not be found.");
    };
    const errorBody = (service, status, message) => {
        if (service === "keystone")
            return { error: { code: status, message, title: status === 401 ? "Unauthorized" : "Error" } };
        if (service === "neutron")
            return { NeutronError: { type: status === 404 ? "NotFound" : "BadRequest", message, detail: "" } };
        return { [NOVA_KIND[status] ?? "computeFault"]: { code: status, message } };
    };
    const handle = async (req, res) => {
        const url = new URL(req.url ?? "/", base);
        const path = url.pathname;
        const service = path.startsWith("/v3") ? "keystone" : path.startsWith("/network") ? "neutron" : path.startsWith("/image") ? "glance" : "nova";
        let route;
        try {
            if (service !== "keystone" && !tokens.has(String(req.headers["x-auth-token"] ?? ""))) {
                throw new HttpError(401, "The request you have made requires authentication.");
            }
            if (service === "keystone")
                route = await keystone(req, path);
            else if (path.startsWith("/compute/v2.1"))
                route = await nova(req, path.slice("/compute/v2.1".length));
            else if (service === "neutron")
                route = await neutron(req, path.slice("/network".length), url.searchParams);
            else if (service === "glance")
                route = await glance(req, path.slice("/image".length), url.searchParams);
            else
                throw new HttpError(404, "The resource could not be found.");
        }
        catch (error) {
            const status = error instanceof HttpError ? error.status : 500;
            const message = error instanceof Error ? error.message : String(error);
            route = { status, body: errorBody(service, status, message) };
        }
        const payload = route.body === undefined ? "" : JSON.stringify(route.body);
        res.writeHead(route.status ?? 200, { ...(payload ? { "Content-Type": "application/json" } : {}), ...(route.headers ?? {}) });
        res.end(payload);
    };
    const server = createServer((req, res) => {
        handle(req, res).catch(() => {
            res.writeHead(500).end();
        });
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${server.address().port}`;
    return {
        authUrl: `${base}/v3`,
        username,
        password,
        project,
        inventory: () => ({
            servers: [...servers.values()].map((s) => ({
                id: s.id,
                name: s.name,
                status: serverView(s).status,
                metadata: { ...s.metadata },
                keyName: s.keyName,
                network: networks.find((n) => n.id === s.networkId).name,
                // Nova puts a server asked for with no group in the project's default one.
                securityGroups: s.securityGroups.length > 0 ? s.securityGroups.map((ref) => groupNamed(ref)?.name ?? ref) : ["default"],
                fixedIp: s.fixedIp,
            })),
            keyPairs: [...keypairs.values()].map((k) => (k.imported ? { name: k.name, publicKey: k.public_key } : { name: k.name })),
            securityGroups: [...securityGroups.values()]
                .filter((g) => !g.preset)
                .map(({ id, name, description, rules }) => ({ id, name, description, rules: [...rules] })),
            floatingIps: [...floatingIps.values()].map((f) => ({
                id: f.id,
                address: f.floating_ip_address,
                portId: f.port_id,
                description: f.description,
            })),
        }),
        failNext(operation, error = {}, after = 0) {
            if (operation === "serverBuild") {
                const fault = error.message ?? "No valid host was found. There are not enough hosts available.";
                failNextBuild = error.echoCredentials ? `${fault} (${credentialEcho(username, password)})` : fault;
                return;
            }
            failures.set(operation, {
                status: error.status ?? 500,
                message: error.message ?? `Injected failure of ${operation}`,
                echoCredentials: error.echoCredentials ?? false,
                after,
            });
        },
        tokens: () => [...issued],
        revokeTokens: () => tokens.clear(),
        holdBoot(hold) {
            held = hold;
        },
        seedServer(metadata) {
            const s = createServerState({ server: { name: "seeded", imageRef: images[0].id, flavorRef: flavors[0].id, metadata } });
            s.polls = pollsUntilActive;
            return s.id;
        },
        stop: () => new Promise((resolve, reject) => {
            server.closeAllConnections();
            server.close((e) => (e ? reject(e) : resolve()));
        }),
    };
}
//# sourceMappingURL=openstack-double.js.map