import { generateKeyPairSync, randomBytes } from "node:crypto";
// The double answers the very command classes the driver sends: one namespace, each named where it is handled.
import * as ec2 from "@aws-sdk/client-ec2";
import { mockClient } from "aws-sdk-client-mock";
const IMAGES = [
    { ImageId: "ami-0d1e2b3a4c5f60001", Name: "debian-12-amd64-20240101-1612", CreationDate: "2024-01-01T16:12:00.000Z" },
    { ImageId: "ami-0d1e2b3a4c5f60002", Name: "debian-12-amd64-20240610-1780", CreationDate: "2024-06-10T17:08:00.000Z" },
    { ImageId: "ami-0a9b8c7d6e5f40003", Name: "ubuntu-jammy-22.04-amd64-server-20240301", CreationDate: "2024-03-01T00:00:00.000Z" },
];
/** A subnet of our own: like any but a default VPC's, it gives no public address unless one is asked for. */
const SUBNETS = [{ SubnetId: "subnet-0a1b2c3d", VpcId: "vpc-0a1b2c3d", CidrBlock: "10.0.0.0/24", MapPublicIpOnLaunch: false }];
const KEY_PAIRS = {
    fields: (k) => ({ "key-name": k.name }),
    notFound: (name) => awsError("InvalidKeyPair.NotFound", `The key pair '${name}' does not exist`),
};
const SECURITY_GROUPS = {
    fields: (g) => ({ "group-name": g.name, "group-id": g.id }),
    notFound: (id) => awsError("InvalidGroup.NotFound", `The security group '${id}' does not exist`),
};
function awsError(code, message) {
    return Object.assign(new Error(message), { name: code, $fault: "client", $metadata: { httpStatusCode: 400 } });
}
function hexId(prefix) {
    return `${prefix}-${randomBytes(9).toString("hex").slice(0, 17)}`;
}
function glob(pattern, value) {
    const re = new RegExp("^" +
        pattern
            .split("*")
            .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
            .join(".*") +
        "$");
    return re.test(value);
}
/** EC2 filter semantics: every filter must match; any value of one filter may. */
function matches(filters, fields) {
    return (filters ?? []).every((f) => {
        const have = fields(f.Name ?? "");
        return (f.Values ?? []).some((want) => have.some((v) => glob(want, v)));
    });
}
/**
 * What a Describe call answers from `all` (keyed as EC2 names them): those `wanted` names (all
 * without it; one that is not there fails the call, as EC2 does) that every filter matches.
 */
function described(all, kind, wanted, filters) {
    const missing = wanted?.find((key) => !all.has(key));
    if (missing)
        throw kind.notFound(missing);
    const fields = (item, name) => {
        const own = kind.fields(item);
        return tagFields(item.tags, name) ?? (Object.hasOwn(own, name) ? [own[name]] : []);
    };
    return [...all]
        .filter(([key]) => !wanted || wanted.includes(key))
        .map(([, item]) => item)
        .filter((item) => matches(filters, (n) => fields(item, n)));
}
function tagFields(tags, name) {
    if (name.startsWith("tag:"))
        return tags.filter((t) => t.Key === name.slice(4)).map((t) => t.Value ?? "");
    if (name === "tag-key")
        return tags.map((t) => t.Key ?? "");
    return undefined;
}
function tagsFor(specs, type) {
    return (specs ?? []).filter((s) => s.ResourceType === type).flatMap((s) => s.Tags ?? []);
}
function tagMap(tags) {
    return Object.fromEntries(tags.map((t) => [t.Key ?? "", t.Value ?? ""]));
}
export function createEc2Double(options) {
    const client = new ec2.EC2Client({ region: "eu-west-1", credentials: { accessKeyId: "double", secretAccessKey: "double" } });
    // Only this client instance is mocked, so tests running side by side do not interfere.
    const mock = mockClient(client);
    const pollsUntilRunning = options.pollsUntilRunning ?? 1;
    const instances = new Map();
    const keyPairs = new Map();
    const groups = new Map();
    const failures = new Map();
    const sent = [];
    let failNextLaunch = false;
    let ipCounter = 10;
    const handle = (name, fn) => async (input) => {
        sent.push(name);
        const failure = failures.get(name);
        if (failure && failure.after > 0)
            failure.after -= 1;
        else if (failure) {
            failures.delete(name);
            throw failure.error;
        }
        return structuredClone(fn(input));
    };
    let held = false;
    const advance = (i) => {
        if (held && i.state === "pending")
            return;
        i.polls += 1;
        if (i.state === "pending" && i.polls >= pollsUntilRunning)
            i.state = i.failLaunch ? "terminated" : "running";
        else if (i.state === "shutting-down")
            i.state = "terminated";
    };
    const view = (i) => ({
        InstanceId: i.id,
        ImageId: i.imageId,
        InstanceType: i.type,
        // Every instance of the double's region (eu-west-1) runs in one zone of it.
        Placement: { AvailabilityZone: "eu-west-1b" },
        KeyName: i.keyName,
        State: { Name: i.state, Code: { pending: 0, running: 16, "shutting-down": 32, terminated: 48 }[i.state] },
        StateReason: i.failLaunch && i.state === "terminated" ? { Code: "Server.InternalError", Message: "Server.InternalError: Internal error on launch" } : undefined,
        // The harness's sshd is "the internet" here: only a public address reaches it.
        PrivateIpAddress: i.state === "terminated" ? undefined : i.privateIp,
        PublicIpAddress: i.state === "running" && i.publicIp ? options.sshHost : undefined,
        SecurityGroups: i.groupIds.map((id) => ({ GroupId: id, GroupName: groups.get(id)?.name })),
        SubnetId: i.subnetId,
        Tags: i.tags,
        LaunchTime: i.launched,
    });
    mock.on(ec2.DescribeImagesCommand).callsFake(handle("DescribeImages", (input) => ({
        Images: IMAGES.filter((img) => (!input.ImageIds || input.ImageIds.includes(img.ImageId)) &&
            matches(input.Filters, (n) => (n === "name" ? [img.Name] : n === "image-id" ? [img.ImageId] : []))),
    })));
    mock.on(ec2.DescribeSubnetsCommand).callsFake(handle("DescribeSubnets", (input) => {
        const found = SUBNETS.filter((s) => !input.SubnetIds || input.SubnetIds.includes(s.SubnetId));
        const missing = input.SubnetIds?.find((id) => !SUBNETS.some((s) => s.SubnetId === id));
        if (missing)
            throw awsError("InvalidSubnetID.NotFound", `The subnet ID '${missing}' does not exist`);
        return { Subnets: found };
    }));
    mock.on(ec2.CreateKeyPairCommand).callsFake(handle("CreateKeyPair", (input) => {
        const name = input.KeyName ?? "";
        if (keyPairs.has(name))
            throw awsError("InvalidKeyPair.Duplicate", `The keypair already exists`);
        const material = options.privateKey ?? generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString();
        const id = hexId("key");
        keyPairs.set(name, { name, id, tags: tagsFor(input.TagSpecifications, "key-pair") });
        return { KeyName: name, KeyPairId: id, KeyFingerprint: "00:11:22", KeyMaterial: material };
    }));
    mock.on(ec2.ImportKeyPairCommand).callsFake(handle("ImportKeyPair", (input) => {
        const name = input.KeyName ?? "";
        if (keyPairs.has(name))
            throw awsError("InvalidKeyPair.Duplicate", `The keypair already exists`);
        const publicKey = Buffer.from(input.PublicKeyMaterial ?? new Uint8Array())
            .toString("utf8")
            .trim();
        if (!/^(ssh-rsa|ssh-ed25519|ecdsa-sha2-\S+) [A-Za-z0-9+/=]+( .*)?$/.test(publicKey)) {
            throw awsError("InvalidKey.Format", "Key is not in valid OpenSSH public key format");
        }
        const id = hexId("key");
        keyPairs.set(name, { name, id, publicKey, tags: tagsFor(input.TagSpecifications, "key-pair") });
        return { KeyName: name, KeyPairId: id, KeyFingerprint: "00:11:22" };
    }));
    mock.on(ec2.DeleteKeyPairCommand).callsFake(handle("DeleteKeyPair", (input) => {
        // Like EC2: deleting a key pair that is not there succeeds.
        keyPairs.delete(input.KeyName ?? "");
        return {};
    }));
    mock.on(ec2.DescribeKeyPairsCommand).callsFake(handle("DescribeKeyPairs", (input) => {
        const found = described(keyPairs, KEY_PAIRS, input.KeyNames, input.Filters);
        return { KeyPairs: found.map((k) => ({ KeyName: k.name, KeyPairId: k.id, Tags: k.tags })) };
    }));
    mock.on(ec2.CreateSecurityGroupCommand).callsFake(handle("CreateSecurityGroup", (input) => {
        if ([...groups.values()].some((g) => g.name === input.GroupName)) {
            throw awsError("InvalidGroup.Duplicate", `The security group '${input.GroupName}' already exists`);
        }
        const id = hexId("sg");
        groups.set(id, {
            id,
            name: input.GroupName ?? "",
            vpcId: input.VpcId,
            rules: [],
            tags: tagsFor(input.TagSpecifications, "security-group"),
        });
        return { GroupId: id };
    }));
    mock.on(ec2.AuthorizeSecurityGroupIngressCommand).callsFake(handle("AuthorizeSecurityGroupIngress", (input) => {
        const group = groups.get(input.GroupId ?? "");
        if (!group)
            throw awsError("InvalidGroup.NotFound", `The security group '${input.GroupId}' does not exist`);
        const rules = [];
        for (const p of input.IpPermissions ?? []) {
            // "-1" is every protocol and port (FromPort and ToPort do not count then).
            const what = p.IpProtocol === "-1" ? "all" : `${p.IpProtocol}/${p.FromPort === p.ToPort ? p.FromPort : `${p.FromPort}-${p.ToPort}`}`;
            for (const r of p.IpRanges ?? [])
                rules.push(`${what} from ${r.CidrIp}`);
            for (const pair of p.UserIdGroupPairs ?? []) {
                const source = groups.get(pair.GroupId ?? "");
                if (!source)
                    throw awsError("InvalidGroup.NotFound", `The security group '${pair.GroupId}' does not exist`);
                if (source.vpcId !== group.vpcId)
                    throw awsError("InvalidGroup.NotFound", `You have specified two resources that belong to different networks.`);
                rules.push(`${what} from ${source.id}`);
            }
        }
        // All or nothing, as EC2: one rule there already fails the call.
        if (rules.some((r, n) => group.rules.includes(r) || rules.indexOf(r) !== n)) {
            throw awsError("InvalidPermission.Duplicate", "the specified rule already exists");
        }
        group.rules.push(...rules);
        return { Return: true };
    }));
    mock.on(ec2.DeleteSecurityGroupCommand).callsFake(handle("DeleteSecurityGroup", (input) => {
        const group = groups.get(input.GroupId ?? "");
        if (!group)
            throw awsError("InvalidGroup.NotFound", `The security group '${input.GroupId}' does not exist`);
        const user = [...instances.values()].find((i) => i.state !== "terminated" && i.groupIds.includes(group.id));
        // A rule of another group naming this one keeps it too (its own rules do not).
        const referrer = [...groups.values()].find((g) => g.id !== group.id && g.rules.some((r) => r.endsWith(` from ${group.id}`)));
        if (user || referrer)
            throw awsError("DependencyViolation", `resource ${group.id} has a dependent object`);
        groups.delete(group.id);
        return {};
    }));
    mock.on(ec2.DescribeSecurityGroupsCommand).callsFake(handle("DescribeSecurityGroups", (input) => {
        const found = described(groups, SECURITY_GROUPS, input.GroupIds, input.Filters);
        return { SecurityGroups: found.map((g) => ({ GroupId: g.id, GroupName: g.name, VpcId: g.vpcId, Tags: g.tags })) };
    }));
    mock.on(ec2.RunInstancesCommand).callsFake(handle("RunInstances", (input) => {
        if (!IMAGES.some((img) => img.ImageId === input.ImageId)) {
            throw awsError("InvalidAMIID.NotFound", `The image id '[${input.ImageId}]' does not exist`);
        }
        if (input.KeyName && !keyPairs.has(input.KeyName)) {
            throw awsError("InvalidKeyPair.NotFound", `The key pair '${input.KeyName}' does not exist`);
        }
        const nic = input.NetworkInterfaces?.[0];
        if (nic && (input.SubnetId || input.SecurityGroupIds)) {
            throw awsError("InvalidParameterCombination", "Network interfaces and an instance-level subnet ID or security groups may not be specified on the same request");
        }
        const subnetId = nic ? nic.SubnetId : input.SubnetId;
        const groupIds = (nic ? nic.Groups : input.SecurityGroupIds) ?? [];
        const missingGroup = groupIds.find((id) => !groups.has(id));
        if (missingGroup)
            throw awsError("InvalidGroup.NotFound", `The security group '${missingGroup}' does not exist`);
        const subnet = SUBNETS.find((s) => s.SubnetId === subnetId);
        if (subnetId && !subnet)
            throw awsError("InvalidSubnetID.NotFound", `The subnet ID '${subnetId}' does not exist`);
        const publicIp = subnet ? (nic?.AssociatePublicIpAddress ?? subnet.MapPublicIpOnLaunch) : true;
        const created = [];
        for (let n = 0; n < (input.MinCount ?? 1); n++) {
            const i = {
                id: hexId("i"),
                imageId: input.ImageId ?? "",
                type: String(input.InstanceType ?? "t3.micro"),
                keyName: input.KeyName,
                groupIds,
                subnetId,
                publicIp,
                state: "pending",
                polls: 0,
                failLaunch: failNextLaunch,
                privateIp: `10.0.0.${ipCounter++}`,
                tags: tagsFor(input.TagSpecifications, "instance"),
                launched: new Date(),
            };
            failNextLaunch = false;
            instances.set(i.id, i);
            created.push(i);
        }
        return { ReservationId: hexId("r"), Instances: created.map(view) };
    }));
    mock.on(ec2.DescribeInstancesCommand).callsFake(handle("DescribeInstances", (input) => {
        const missing = input.InstanceIds?.find((id) => !instances.has(id));
        if (missing)
            throw awsError("InvalidInstanceID.NotFound", `The instance ID '${missing}' does not exist`);
        const found = [...instances.values()]
            .filter((i) => !input.InstanceIds || input.InstanceIds.includes(i.id))
            .map((i) => (advance(i), i))
            .filter((i) => matches(input.Filters, (n) => tagFields(i.tags, n) ?? (n === "instance-state-name" ? [i.state] : n === "instance-id" ? [i.id] : [])));
        return { Reservations: found.map((i) => ({ ReservationId: `r-${i.id.slice(2)}`, Instances: [view(i)] })) };
    }));
    mock.on(ec2.TerminateInstancesCommand).callsFake(handle("TerminateInstances", (input) => {
        const missing = input.InstanceIds?.find((id) => !instances.has(id));
        if (missing)
            throw awsError("InvalidInstanceID.NotFound", `The instance ID '${missing}' does not exist`);
        return {
            TerminatingInstances: (input.InstanceIds ?? []).map((id) => {
                const i = instances.get(id);
                const previous = i.state;
                if (i.state !== "terminated")
                    i.state = "shutting-down";
                return { InstanceId: id, PreviousState: { Name: previous }, CurrentState: { Name: i.state } };
            }),
        };
    }));
    return {
        client,
        inventory: () => ({
            instances: [...instances.values()]
                .filter((i) => i.state !== "terminated")
                .map((i) => ({
                id: i.id,
                state: i.state,
                imageId: i.imageId,
                keyName: i.keyName,
                subnetId: i.subnetId,
                groupIds: [...i.groupIds],
                publicIp: i.publicIp,
                privateIp: i.privateIp,
                tags: tagMap(i.tags),
            })),
            keyPairs: [...keyPairs.values()].map((k) => ({ name: k.name, publicKey: k.publicKey, tags: tagMap(k.tags) })),
            securityGroups: [...groups.values()].map((g) => ({ id: g.id, name: g.name, tags: tagMap(g.tags), rules: [...g.rules] })),
        }),
        failNext(command, error, after = 0) {
            const name = command.replace(/Command$/, "");
            if (name === "InstanceLaunch") {
                failNextLaunch = true;
                return;
            }
            const e = error instanceof Error ? error : awsError(error ?? "InternalError", `Injected failure of ${name}`);
            failures.set(name, { error: e, after });
        },
        calls: () => [...sent],
        holdBoot: (hold) => {
            held = hold;
        },
        restore: () => mock.restore(),
    };
}
//# sourceMappingURL=ec2-double.js.map