import { randomBytes, randomUUID } from "node:crypto";
import { createServer } from "node:https";
import { entraRoutes } from "./entra-double.js";
import { selfSigned } from "./self-signed.js";
class ArmError extends Error {
    status;
    code;
    constructor(status, code, message) {
        super(message);
        this.status = status;
        this.code = code;
    }
}
const SIZES = ["Standard_B1s", "Standard_B2s", "Standard_D2s_v5"];
const IMAGES = ["Debian:debian-12:12-gen2:latest", "Canonical:ubuntu-24_04-lts:server:latest"];
const VNET = "bench-vnet";
const SUBNET = "default";
export async function startAzureDouble(options) {
    const tenant = randomUUID();
    const clientId = randomUUID();
    const clientSecret = `${randomBytes(3).toString("hex")}~${randomBytes(20).toString("base64url")}`;
    const subscriptionId = randomUUID();
    const resourceGroup = "bench";
    const location = "westeurope";
    const pollsUntilRunning = options.pollsUntilRunning ?? 1;
    const group = `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}`;
    const subnetId = `${group}/providers/Microsoft.Network/virtualNetworks/${VNET}/subnets/${SUBNET}`;
    const { key, cert } = await selfSigned();
    const tokens = [];
    const nsgs = new Map();
    const asgs = new Map();
    const publicIps = new Map();
    const nics = new Map();
    const vms = new Map();
    const operations = new Map();
    const failures = new Map();
    let failNextBoot = false;
    let held = false;
    let ipCounter = 4;
    let url = "";
    const idOf = (type, name) => `${group}/providers/${type}/${name}`;
    const NSG = "Microsoft.Network/networkSecurityGroups";
    const ASG = "Microsoft.Network/applicationSecurityGroups";
    const PIP = "Microsoft.Network/publicIPAddresses";
    const NIC = "Microsoft.Network/networkInterfaces";
    const VM = "Microsoft.Compute/virtualMachines";
    /** The injected failure of `op`, if this call is the one: thrown when immediate, returned when asynchronous. */
    const failure = (op) => {
        const f = failures.get(op);
        if (!f)
            return undefined;
        if (f.after > 0) {
            f.after -= 1;
            return undefined;
        }
        failures.delete(op);
        const error = f.error ?? "InjectedFailure";
        const message = f.message ?? `Injected failure of ${op}`;
        if (!f.async)
            throw new ArmError(f.status ?? 409, error, message);
        return { error, message };
    };
    /** Starts an operation; its poll URL goes in the Azure-AsyncOperation (and Location) header. */
    const startOperation = (namespace, status, error) => {
        const opId = randomUUID();
        operations.set(opId, { polls: 0, status, error });
        return `${url}/subscriptions/${subscriptionId}/providers/${namespace}/locations/${location}/operations/${opId}?api-version=2024-01-01`;
    };
    /**
     * A PUT of a network resource: applied at once, Updating until its operation is polled once,
     * then Succeeded (or Failed, for an injected asynchronous failure).
     */
    const accepted = (resource, fail) => {
        resource.provisioningState = "Updating";
        const header = startOperation("Microsoft.Network", () => {
            resource.provisioningState = fail ? "Failed" : "Succeeded";
            return fail ? "Failed" : "Succeeded";
        }, fail ? { code: fail.error, message: fail.message } : undefined);
        return header;
    };
    const tagsOf = (body) => body.tags ?? {};
    const propsOf = (body) => (body.properties ?? {});
    const refId = (ref) => (ref?.id ?? "").toLowerCase();
    const byId = (map, id) => map.get(id.toLowerCase());
    const ruleOf = (name, p) => {
        const access = String(p.access ?? "");
        const priority = Number(p.priority);
        if (!["Allow", "Deny"].includes(access))
            throw new ArmError(400, "SecurityRuleInvalidAccess", `Security rule ${name} has invalid Access ${access}.`);
        if (!Number.isInteger(priority) || priority < 100 || priority > 4096) {
            throw new ArmError(400, "SecurityRuleInvalidPriority", `Security rule ${name} has invalid Priority. Value provided: ${p.priority}.`);
        }
        const sourceAsgs = (p.sourceApplicationSecurityGroups ?? []).map(refId);
        for (const asg of sourceAsgs) {
            if (!asgs.has(asg))
                throw new ArmError(400, "InvalidResourceReference", `Resource ${asg} referenced by ${name} was not found.`);
        }
        if (!sourceAsgs.length && !p.sourceAddressPrefix)
            throw new ArmError(400, "SecurityRuleParameterContainsUnsupportedValue", `Security rule ${name} has no source.`);
        return {
            name,
            access,
            priority,
            protocol: String(p.protocol ?? "*"),
            sourceAddressPrefix: p.sourceAddressPrefix,
            sourceApplicationSecurityGroups: sourceAsgs,
            destinationPortRange: String(p.destinationPortRange ?? "*"),
        };
    };
    const ruleView = (nsg, r) => ({
        id: `${idOf(NSG, nsg)}/securityRules/${r.name}`,
        name: r.name,
        properties: {
            provisioningState: r.provisioningState,
            access: r.access,
            direction: "Inbound",
            priority: r.priority,
            protocol: r.protocol,
            sourcePortRange: "*",
            destinationPortRange: r.destinationPortRange,
            ...(r.sourceAddressPrefix ? { sourceAddressPrefix: r.sourceAddressPrefix } : {}),
            ...(r.sourceApplicationSecurityGroups.length ? { sourceApplicationSecurityGroups: r.sourceApplicationSecurityGroups.map((id) => ({ id })) } : {}),
        },
    });
    const views = {
        nsg: (g) => ({
            id: idOf(NSG, g.name),
            name: g.name,
            type: NSG,
            location,
            tags: g.tags,
            properties: { provisioningState: g.provisioningState, securityRules: [...g.rules.values()].map((r) => ruleView(g.name, r)) },
        }),
        asg: (a) => ({
            id: idOf(ASG, a.name),
            name: a.name,
            type: ASG,
            location,
            tags: a.tags,
            properties: { provisioningState: a.provisioningState },
        }),
        pip: (p) => ({
            id: idOf(PIP, p.name),
            name: p.name,
            type: PIP,
            location,
            tags: p.tags,
            sku: { name: "Standard" },
            properties: { provisioningState: p.provisioningState, publicIPAllocationMethod: "Static", ipAddress: p.ipAddress },
        }),
        nic: (n) => ({
            id: idOf(NIC, n.name),
            name: n.name,
            type: NIC,
            location,
            tags: n.tags,
            properties: {
                provisioningState: n.provisioningState,
                ...(n.securityGroupId ? { networkSecurityGroup: { id: n.securityGroupId } } : {}),
                ...(n.vmId ? { virtualMachine: { id: n.vmId } } : {}),
                ipConfigurations: [
                    {
                        id: `${idOf(NIC, n.name)}/ipConfigurations/primary`,
                        name: "primary",
                        properties: {
                            privateIPAddress: n.privateIp,
                            subnet: { id: n.subnetId },
                            ...(n.publicIpId ? { publicIPAddress: { id: n.publicIpId } } : {}),
                            applicationSecurityGroups: n.applicationSecurityGroupIds.map((id) => ({ id })),
                        },
                    },
                ],
            },
        }),
        vm: (v) => ({
            id: idOf(VM, v.name),
            name: v.name,
            type: VM,
            location,
            tags: v.tags,
            properties: {
                provisioningState: v.provisioningState,
                hardwareProfile: { vmSize: v.size },
                storageProfile: { imageReference: v.image },
                osProfile: {
                    computerName: v.name,
                    adminUsername: v.adminUsername,
                    linuxConfiguration: { disablePasswordAuthentication: true, ssh: { publicKeys: v.publicKeys.map((keyData) => ({ keyData })) } },
                },
                networkProfile: { networkInterfaces: v.nicId ? [{ id: v.nicId, properties: { primary: true } }] : [] },
            },
        }),
    };
    /** The VM's provisioning as a GET shows it (a GET moves it on, unless boots are held). */
    const vmState = (v) => {
        if (v.deleting)
            return "Deleting";
        if (v.polls < pollsUntilRunning)
            return "Creating";
        return v.failBoot ? "Failed" : "Succeeded";
    };
    const createVm = async (name, body) => {
        const p = propsOf(body);
        const size = String(p.hardwareProfile?.vmSize ?? "");
        if (!SIZES.includes(size))
            throw new ArmError(400, "InvalidParameter", `The requested VM size ${size} is not available in location '${location}'.`);
        const image = p.storageProfile?.imageReference ?? {};
        const urn = `${image.publisher}:${image.offer}:${image.sku}:${image.version}`;
        if (!image.id && !IMAGES.includes(urn))
            throw new ArmError(404, "PlatformImageNotFound", `The platform image '${urn}' is not available.`);
        const os = (p.osProfile ?? {});
        const publicKeys = (os.linuxConfiguration?.ssh?.publicKeys ?? []).map((k) => k.keyData ?? "");
        if (!os.adminUsername || publicKeys.length === 0 || publicKeys.some((k) => !/^(ssh-rsa|ssh-ed25519|ecdsa-sha2-\S+) \S+/.test(k))) {
            throw new ArmError(400, "InvalidParameter", "The value of parameter linuxConfiguration.ssh.publicKeys.keyData is invalid.");
        }
        const nicRefs = (p.networkProfile?.networkInterfaces ?? []).map(refId);
        const nic = nicRefs.length === 1 ? nics.get(nicRefs[0]) : undefined;
        if (!nic)
            throw new ArmError(400, "InvalidParameter", "A VM needs exactly one existing network interface here.");
        if (nic.vmId)
            throw new ArmError(400, "NicInUse", `Network interface ${nicRefs[0]} is used by existing VM ${nic.vmId}.`);
        const osDisk = p.storageProfile?.osDisk;
        if (osDisk?.deleteOption !== "Delete")
            throw new ArmError(400, "NotModelled", "This double only makes VMs whose OS disk goes with them.");
        const v = {
            name,
            tags: tagsOf(body),
            size,
            image,
            adminUsername: os.adminUsername,
            publicKeys,
            nicId: idOf(NIC, nic.name),
            polls: 0,
            failBoot: failNextBoot,
            deleting: false,
            provisioningState: "Creating",
        };
        failNextBoot = false;
        nic.vmId = idOf(VM, name);
        vms.set(idOf(VM, name).toLowerCase(), v);
        for (const k of publicKeys)
            await options.guestAgent?.(k);
        return v;
    };
    const deleteVm = (v) => {
        v.deleting = true;
        return startOperation("Microsoft.Compute", () => (byId(vms, idOf(VM, v.name)) ? "InProgress" : "Succeeded"));
    };
    /** A deleted VM shows Deleting once more, then is gone and lets go of its interface. */
    const shownVm = (v) => {
        if (!v.deleting && (!held || v.polls >= pollsUntilRunning))
            v.polls += 1;
        v.provisioningState = vmState(v);
        const shown = views.vm(v);
        if (v.deleting) {
            vms.delete(idOf(VM, v.name).toLowerCase());
            const nic = v.nicId ? byId(nics, v.nicId) : undefined;
            if (nic)
                nic.vmId = undefined;
        }
        return shown;
    };
    /** What a network resource's deletion is refused for while something uses it. */
    const inUse = (type, id) => {
        const users = [...nics.values()];
        if (type === NIC) {
            const vm = byId(nics, id)?.vmId;
            return vm ? new ArmError(400, "NicInUse", `Network interface ${id} is used by existing VM ${vm}.`) : undefined;
        }
        if (type === PIP && users.some((n) => n.publicIpId?.toLowerCase() === id.toLowerCase())) {
            return new ArmError(400, "PublicIPAddressCannotBeDeleted", `Public IP address ${id} can not be deleted since it is still allocated to a resource.`);
        }
        if (type === NSG && users.some((n) => n.securityGroupId?.toLowerCase() === id.toLowerCase())) {
            return new ArmError(400, "InUseNetworkSecurityGroupCannotBeDeleted", `Network security group ${id} cannot be deleted because it is in use.`);
        }
        if (type === ASG) {
            const used = users.some((n) => n.applicationSecurityGroupIds.includes(id.toLowerCase())) ||
                [...nsgs.values()].some((g) => [...g.rules.values()].some((r) => r.sourceApplicationSecurityGroups.includes(id.toLowerCase())));
            if (used)
                return new ArmError(400, "InUseApplicationSecurityGroupCannotBeDeleted", `Application security group ${id} cannot be deleted because it is in use.`);
        }
        return undefined;
    };
    const networkMaps = { [NSG]: nsgs, [ASG]: asgs, [PIP]: publicIps, [NIC]: nics };
    /** PUT, GET and DELETE of one network resource, and its rules. */
    const network = async (req, type, name, rest) => {
        const id = idOf(type, name);
        const key = id.toLowerCase();
        const map = networkMaps[type];
        if (!map)
            throw new ArmError(400, "InvalidResourceType", `The resource type '${type}' is not modelled here.`);
        const existing = map.get(key);
        if (rest) {
            // .../networkSecurityGroups/{nsg}/securityRules/{rule}
            const rule = /^securityRules\/([^/]+)$/.exec(rest);
            const g = existing;
            if (!rule || type !== NSG)
                throw new ArmError(404, "NotFound", `No such resource: ${rest}`);
            if (!g)
                throw new ArmError(404, "ResourceNotFound", `The Resource '${NSG}/${name}' under resource group '${resourceGroup}' was not found.`);
            if (req.method === "GET") {
                const r = g.rules.get(rule[1]);
                if (!r)
                    throw new ArmError(404, "NotFound", `Security rule ${rule[1]} was not found.`);
                return { status: 200, body: ruleView(name, r) };
            }
            if (req.method !== "PUT")
                throw new ArmError(405, "MethodNotAllowed", `${req.method} of a rule is not modelled here.`);
            const fail = failure("putSecurityRule");
            const r = { ...ruleOf(rule[1], propsOf(await readJson(req))), provisioningState: "Updating" };
            const clash = [...g.rules.values()].find((o) => o.name !== r.name && o.priority === r.priority);
            if (clash)
                throw new ArmError(400, "SecurityRuleConflict", `Security rule ${r.name} conflicts with rule ${clash.name}: same priority ${r.priority}.`);
            const created = !g.rules.has(r.name);
            g.rules.set(r.name, r);
            const op = accepted(r, fail);
            return { status: created ? 201 : 200, body: ruleView(name, r), headers: { "Azure-AsyncOperation": op } };
        }
        if (req.method === "GET") {
            if (!existing)
                throw new ArmError(404, "ResourceNotFound", `The Resource '${type}/${name}' under resource group '${resourceGroup}' was not found.`);
            return { status: 200, body: viewOf(type, existing) };
        }
        if (req.method === "DELETE") {
            if (!existing)
                return { status: 204 };
            const refused = inUse(type, id);
            if (refused)
                throw refused;
            map.delete(key);
            const op = startOperation("Microsoft.Network", () => "Succeeded");
            return { status: 202, headers: { "Azure-AsyncOperation": op, Location: op } };
        }
        if (req.method !== "PUT")
            throw new ArmError(405, "MethodNotAllowed", `${req.method} is not modelled here.`);
        const body = await readJson(req);
        if (body.location !== location)
            throw new ArmError(400, "LocationRequired", `The location property is required and must be '${location}' here.`);
        const p = propsOf(body);
        if (type === NSG) {
            const fail = failure("putSecurityGroup");
            const rules = (p.securityRules ?? []).map((r) => ({
                ...ruleOf(r.name ?? "", r.properties ?? {}),
                provisioningState: "Succeeded",
            }));
            const g = { name, tags: tagsOf(body), rules: new Map(rules.map((r) => [r.name, r])), provisioningState: "Updating" };
            return putReply(map, key, g, existing, type, fail);
        }
        if (type === ASG) {
            const fail = failure("putApplicationSecurityGroup");
            const asg = { name, tags: tagsOf(body), provisioningState: "Updating" };
            return putReply(map, key, asg, existing, type, fail);
        }
        if (type === PIP) {
            const fail = failure("putPublicIp");
            if (p.publicIPAllocationMethod !== "Static")
                throw new ArmError(400, "StandardSkuPublicIPAddressesMustBeStatic", "Standard sku public IP addresses must be Static.");
            const ip = {
                name,
                tags: tagsOf(body),
                ipAddress: options.sshHost,
                provisioningState: "Updating",
            };
            return putReply(map, key, ip, existing, type, fail);
        }
        const fail = failure("putNic");
        const config = (p.ipConfigurations ?? [])[0]?.properties ?? {};
        if (refId(config.subnet) !== subnetId.toLowerCase())
            throw new ArmError(400, "InvalidResourceReference", `Subnet ${refId(config.subnet)} was not found.`);
        const securityGroupId = refId(p.networkSecurityGroup) || undefined;
        if (securityGroupId && !nsgs.has(securityGroupId))
            throw new ArmError(400, "InvalidResourceReference", `Resource ${securityGroupId} referenced by ${id} was not found.`);
        const publicIpId = refId(config.publicIPAddress) || undefined;
        if (publicIpId && !publicIps.has(publicIpId))
            throw new ArmError(400, "InvalidResourceReference", `Resource ${publicIpId} referenced by ${id} was not found.`);
        if (publicIpId && [...nics.values()].some((n) => n.name !== name && n.publicIpId === publicIpId)) {
            throw new ArmError(400, "PublicIPAddressInUse", `Public IP address ${publicIpId} is already in use.`);
        }
        const applicationSecurityGroupIds = (config.applicationSecurityGroups ?? []).map(refId);
        for (const asg of applicationSecurityGroupIds) {
            if (!asgs.has(asg))
                throw new ArmError(400, "InvalidResourceReference", `Resource ${asg} referenced by ${id} was not found.`);
        }
        const nic = {
            name,
            tags: tagsOf(body),
            privateIp: existing?.privateIp ?? `10.0.0.${ipCounter++}`,
            securityGroupId,
            publicIpId,
            subnetId: subnetId.toLowerCase(),
            applicationSecurityGroupIds,
            vmId: existing?.vmId,
            provisioningState: "Updating",
        };
        return putReply(map, key, nic, existing, type, fail);
    };
    function putReply(map, key, resource, existing, type, fail) {
        map.set(key, resource);
        const op = accepted(resource, fail);
        return { status: existing ? 200 : 201, body: viewOf(type, resource), headers: { "Azure-AsyncOperation": op } };
    }
    function viewOf(type, r) {
        if (type === NSG)
            return views.nsg(r);
        if (type === ASG)
            return views.asg(r);
        if (type === PIP)
            return views.pip(r);
        return views.nic(r);
    }
    const compute = async (req, name) => {
        const id = idOf(VM, name);
        const v = byId(vms, id);
        if (req.method === "GET") {
            failure("getVm");
            if (!v)
                throw new ArmError(404, "ResourceNotFound", `The Resource '${VM}/${name}' under resource group '${resourceGroup}' was not found.`);
            return { status: 200, body: shownVm(v) };
        }
        if (req.method === "DELETE") {
            failure("deleteVm");
            if (!v)
                return { status: 204 };
            const op = deleteVm(v);
            return { status: 202, headers: { "Azure-AsyncOperation": op, Location: op } };
        }
        if (req.method !== "PUT")
            throw new ArmError(405, "MethodNotAllowed", `${req.method} is not modelled here.`);
        failure("putVm");
        if (v)
            throw new ArmError(409, "Conflict", `VM ${name} exists already; updates are not modelled here.`);
        const body = await readJson(req);
        if (body.location !== location)
            throw new ArmError(400, "LocationRequired", `The location property is required and must be '${location}' here.`);
        const made = await createVm(name, body);
        const op = startOperation("Microsoft.Compute", () => {
            const state = vmState(made);
            return state === "Creating" ? "InProgress" : state === "Failed" ? "Failed" : "Succeeded";
        });
        return { status: 201, body: views.vm(made), headers: { "Azure-AsyncOperation": op } };
    };
    const list = (path) => {
        const m = new RegExp(`^${group}/providers/(Microsoft\\.\\w+/\\w+)$`, "i").exec(path);
        if (!m)
            return undefined;
        const type = m[1];
        if (type.toLowerCase() === VM.toLowerCase()) {
            failure("listVms");
            return { status: 200, body: { value: [...vms.values()].map(views.vm) } };
        }
        const map = Object.entries(networkMaps).find(([t]) => t.toLowerCase() === type.toLowerCase());
        if (!map)
            throw new ArmError(400, "InvalidResourceType", `The resource type '${type}' is not modelled here.`);
        return { status: 200, body: { value: [...map[1].values()].map((r) => viewOf(map[0], r)) } };
    };
    const arm = async (req, path) => {
        const op = /\/operations\/([^/]+)$/.exec(path);
        if (op && req.method === "GET") {
            const o = operations.get(op[1]);
            if (!o)
                throw new ArmError(404, "NotFound", "No such operation.");
            o.polls += 1;
            const status = o.polls < 2 ? "InProgress" : o.status();
            return { status: 200, body: { status, ...(status === "Failed" && o.error ? { error: o.error } : {}) } };
        }
        const listed = req.method === "GET" ? list(path) : undefined;
        if (listed)
            return listed;
        const m = new RegExp(`^${group}/providers/(Microsoft\\.\\w+/\\w+)/([^/]+)(?:/(.+))?$`, "i").exec(path);
        if (!m)
            throw new ArmError(404, "NotFound", `No such resource: ${path}`);
        if (m[1].toLowerCase() === VM.toLowerCase() && !m[3])
            return compute(req, m[2]);
        const type = Object.keys(networkMaps).find((t) => t.toLowerCase() === m[1].toLowerCase()) ?? m[1];
        return network(req, type, m[2], m[3]);
    };
    const entra = entraRoutes({ tenant, clientId, clientSecret, url: () => url, tokens, beforeToken: () => failure("token") });
    const handle = async (req, res) => {
        const path = new URL(req.url ?? "/", "https://double").pathname;
        const send = ({ status, body, headers }) => {
            res.writeHead(status, { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers });
            res.end(body === undefined ? undefined : JSON.stringify(body));
        };
        try {
            const fromEntra = await entra(req.method ?? "GET", path, () => readText(req));
            if (fromEntra)
                return send(fromEntra);
            const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
            if (!bearer || !tokens.includes(bearer)) {
                return send({ status: 401, body: { error: { code: "AuthenticationFailed", message: "Authentication failed." } } });
            }
            send(await arm(req, path));
        }
        catch (e) {
            if (e instanceof ArmError) {
                // Entra answers in OAuth's shape, Resource Manager in its own.
                const body = path.includes("/oauth2/") ? { error: e.code, error_description: e.message } : { error: { code: e.code, message: e.message } };
                return send({ status: e.status, body });
            }
            send({ status: 500, body: { error: { code: "InternalServerError", message: String(e) } } });
        }
    };
    const server = createServer({ key, cert }, (req, res) => void handle(req, res));
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `https://127.0.0.1:${server.address().port}`;
    const rulesOf = (g) => [...g.rules.values()].map(({ provisioningState: _, ...r }) => structuredClone(r));
    return {
        tenant,
        clientId,
        clientSecret,
        subscriptionId,
        resourceGroup,
        location,
        subnet: `${VNET}/${SUBNET}`,
        url,
        ca: cert,
        provider: {
            tenant,
            access_id: clientId,
            secret_key: clientSecret,
            subscription_id: subscriptionId,
            resource_group: resourceGroup,
            region: location,
            auth_url: url,
            endpoint: url,
        },
        inventory: () => {
            // What every resource shows: its id, a copy of its tags, its provisioning.
            const common = (type, r) => ({
                id: idOf(type, r.name),
                tags: { ...r.tags },
                provisioningState: r.provisioningState,
            });
            return {
                vms: [...vms.values()].map((v) => ({
                    ...common(VM, v),
                    provisioningState: vmState(v),
                    ...{ name: v.name, nicId: v.nicId, size: v.size, adminUsername: v.adminUsername, publicKeys: [...v.publicKeys] },
                })),
                nics: [...nics.values()].map(({ name: _, ...n }) => ({ ...structuredClone(n), ...common(NIC, { name: _, ...n }) })),
                publicIps: [...publicIps.values()].map(({ name: _, ...p }) => ({ ...p, ...common(PIP, { name: _, ...p }) })),
                securityGroups: [...nsgs.values()].map((g) => ({ ...common(NSG, g), name: g.name, rules: rulesOf(g) })),
                applicationSecurityGroups: [...asgs.values()].map((a) => common(ASG, a)),
            };
        },
        failNext(op, f = {}, after = 0) {
            if (op === "vmBoot")
                failNextBoot = true;
            else
                failures.set(op, { ...f, after });
        },
        holdBoot(hold) {
            held = hold;
        },
        seedVm(tags) {
            const name = `seeded-${randomBytes(4).toString("hex")}`;
            vms.set(idOf(VM, name).toLowerCase(), {
                name,
                tags,
                size: SIZES[0],
                image: {},
                adminUsername: "azureuser",
                publicKeys: [],
                polls: pollsUntilRunning,
                failBoot: false,
                deleting: false,
                provisioningState: "Succeeded",
            });
            return idOf(VM, name);
        },
        seedSecurityGroup(name) {
            const ssh = {
                name: "ssh",
                access: "Allow",
                priority: 100,
                protocol: "Tcp",
                sourceAddressPrefix: "192.0.2.0/24",
                sourceApplicationSecurityGroups: [],
                destinationPortRange: "22",
                provisioningState: "Succeeded",
            };
            nsgs.set(idOf(NSG, name).toLowerCase(), { name, tags: {}, rules: new Map([["ssh", ssh]]), provisioningState: "Succeeded" });
            return name;
        },
        tokens: () => [...tokens],
        stop: () => new Promise((resolve, reject) => {
            server.closeAllConnections();
            server.close((e) => (e ? reject(e) : resolve()));
        }),
    };
}
async function readText(req) {
    const chunks = [];
    for await (const chunk of req)
        chunks.push(chunk);
    return Buffer.concat(chunks).toString("utf8");
}
async function readJson(req) {
    const text = await readText(req);
    return text ? JSON.parse(text) : {};
}
//# sourceMappingURL=azure-double.js.map