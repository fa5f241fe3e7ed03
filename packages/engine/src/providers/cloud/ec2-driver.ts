import {
  AuthorizeSecurityGroupIngressCommand,
  CreateKeyPairCommand,
  CreateSecurityGroupCommand,
  DeleteKeyPairCommand,
  DeleteSecurityGroupCommand,
  DescribeImagesCommand,
  DescribeInstancesCommand,
  DescribeKeyPairsCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  type EC2Client,
  ImportKeyPairCommand,
  RunInstancesCommand,
  TerminateInstancesCommand,
  type Instance,
  type IpPermission,
  type Tag,
} from "@aws-sdk/client-ec2";
import { BenchwrightError } from "../../errors.js";
import { TAG_MANAGED, TAG_SESSION, type CloudProviderOptions, type CloudSettings } from "./cloud-settings.js";
import type { CloudDriver, LaunchSpec, MachineView, TaggedResource } from "./cloud-driver.js";
import { createEc2Client } from "./ec2-client.js";
import { EC2_KINDS } from "./ec2-kinds.js";

const NOT_FOUND = new Set([
  "InvalidInstanceID.NotFound",
  "InvalidInstanceID.Malformed",
  "InvalidGroup.NotFound",
  "InvalidGroupId.Malformed",
  "InvalidKeyPair.NotFound",
]);

function codeOf(error: unknown): string {
  return (error as { name?: string })?.name ?? "";
}

/** Runs `fn`; "not found" counts as done. */
async function unlessGone(fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    if (!NOT_FOUND.has(codeOf(error))) throw error;
  }
}

function sessionTags(sessionId: string): Tag[] {
  return [
    { Key: TAG_SESSION, Value: sessionId },
    { Key: TAG_MANAGED, Value: "true" },
  ];
}

function tagged(kind: string, id: string | undefined, tags: Tag[] | undefined): TaggedResource[] {
  return id ? [{ kind, id, session: tags?.find((t) => t.Key === TAG_SESSION)?.Value ?? null }] : [];
}

/** AWS EC2: key pairs, security groups and instances, tagged with the session. */
export class Ec2Driver implements CloudDriver {
  readonly name = "ec2";
  readonly kinds = { machine: EC2_KINDS.instance, key: EC2_KINDS.keyPair, access: EC2_KINDS.securityGroup };
  private readonly client: EC2Client;

  constructor(
    private readonly settings: CloudSettings<"ec2">,
    options: CloudProviderOptions,
  ) {
    this.client = options.ec2Client ?? createEc2Client(settings, options.outbound);
  }

  async createKey(spec: { name: string; sessionId: string; publicKey?: string }) {
    const TagSpecifications = [{ ResourceType: "key-pair" as const, Tags: sessionTags(spec.sessionId) }];
    if (spec.publicKey) {
      const out = await this.client.send(new ImportKeyPairCommand({ KeyName: spec.name, PublicKeyMaterial: Buffer.from(spec.publicKey), TagSpecifications }));
      return { id: out.KeyName ?? spec.name };
    }
    const out = await this.client.send(new CreateKeyPairCommand({ KeyName: spec.name, KeyType: "rsa", KeyFormat: "pem", TagSpecifications }));
    return { id: out.KeyName ?? spec.name, privateKey: out.KeyMaterial };
  }

  async createAccess(spec: { name: string; sessionId: string }): Promise<string> {
    const subnet = this.settings.network;
    const vpcId = subnet ? (await this.client.send(new DescribeSubnetsCommand({ SubnetIds: [subnet] }))).Subnets?.[0]?.VpcId : undefined;
    const out = await this.client.send(
      new CreateSecurityGroupCommand({
        GroupName: spec.name,
        Description: `Benchwright session ${spec.sessionId}`,
        VpcId: vpcId,
        TagSpecifications: [{ ResourceType: "security-group", Tags: sessionTags(spec.sessionId) }],
      }),
    );
    if (!out.GroupId) throw new BenchwrightError("provider_failed", "ec2 creating the security group failed: no group id returned");
    return out.GroupId;
  }

  /** SSH from anywhere; everything from the group's own members (a self-referencing rule). */
  async openAccess(id: string, sshPort: number): Promise<void> {
    // One rule a call: EC2 refuses a whole call when one of its rules is there already.
    await this.allowIn(id, {
      IpProtocol: "tcp",
      FromPort: sshPort,
      ToPort: sshPort,
      IpRanges: [{ CidrIp: "0.0.0.0/0", Description: "SSH" }],
    });
    await this.allowIn(id, { IpProtocol: "-1", UserIdGroupPairs: [{ GroupId: id, Description: "the session's machines" }] });
  }

  private async allowIn(id: string, permission: IpPermission): Promise<void> {
    try {
      await this.client.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: id, IpPermissions: [permission] }));
    } catch (error) {
      // A group reused from an earlier attempt already has the rule.
      if (codeOf(error) !== "InvalidPermission.Duplicate") throw error;
    }
  }

  async launch(spec: LaunchSpec): Promise<string> {
    const s = this.settings;
    const groupId = "created" in spec.access ? spec.access.created : await this.groupId(spec.access.configured);
    const imageId = await this.imageId();
    const tags = sessionTags(spec.sessionId);
    const run = await this.client.send(
      new RunInstancesCommand({
        ImageId: imageId,
        InstanceType: s.size as never,
        KeyName: spec.keyName,
        MinCount: 1,
        MaxCount: 1,
        // In a subnet of our choosing the instance gets a public address only if asked for one,
        // which EC2 takes only on a network interface (and then the subnet and groups go there too).
        ...(s.network
          ? { NetworkInterfaces: [{ DeviceIndex: 0, SubnetId: s.network, Groups: [groupId], AssociatePublicIpAddress: true }] }
          : { SecurityGroupIds: [groupId] }),
        TagSpecifications: [
          { ResourceType: "instance", Tags: [...tags, { Key: "Name", Value: spec.name }] },
          { ResourceType: "volume", Tags: tags },
        ],
      }),
    );
    const id = run.Instances?.[0]?.InstanceId;
    if (!id) throw new BenchwrightError("provider_failed", "ec2 launching the instance failed: no instance id returned");
    return id;
  }

  private async groupId(configured: string): Promise<string> {
    if (/^sg-[0-9a-f]+$/.test(configured)) return configured;
    const found = await this.client.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: "group-name", Values: [configured] }] }));
    const id = found.SecurityGroups?.[0]?.GroupId;
    if (!id) throw new BenchwrightError("provider_failed", `ec2: no security group named '${configured}'`);
    return id;
  }

  /** An AMI id as given, else the newest image of that name (pattern). */
  private async imageId(): Promise<string> {
    const image = this.settings.image;
    if (/^ami-[0-9a-f]+$/.test(image)) return image;
    const out = await this.client.send(new DescribeImagesCommand({ Filters: [{ Name: "name", Values: [image] }] }));
    const newest = [...(out.Images ?? [])].sort((a, b) => (b.CreationDate ?? "").localeCompare(a.CreationDate ?? ""))[0];
    if (!newest?.ImageId) throw new BenchwrightError("provider_failed", `ec2: no image named '${image}' in region ${this.settings.region}`);
    return newest.ImageId;
  }

  async describe(id: string): Promise<MachineView> {
    let instance: Instance | undefined;
    try {
      const out = await this.client.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
      instance = out.Reservations?.flatMap((r) => r.Instances ?? []).find((i) => i.InstanceId === id);
    } catch (error) {
      if (NOT_FOUND.has(codeOf(error))) return { state: "unseen" };
      throw error;
    }
    const state = instance?.State?.Name;
    const reason = instance?.StateReason?.Message;
    if (!instance) return { state: "unseen" };
    if (state === "pending") return { state: "pending" };
    if (state === "running") {
      return {
        state: "running",
        address: instance.PublicIpAddress ?? instance.PrivateIpAddress,
        privateAddress: instance.PrivateIpAddress,
        placement: { image: instance.ImageId, instanceType: instance.InstanceType, zone: instance.Placement?.AvailabilityZone },
      };
    }
    if (state === "terminated") return { state: "gone", reason };
    return { state: "failed", reason: `is ${state}${reason ? `: ${reason}` : ""}` };
  }

  async destroy(kind: string, id: string): Promise<"gone" | "busy"> {
    try {
      if (kind === EC2_KINDS.instance) await unlessGone(() => this.client.send(new TerminateInstancesCommand({ InstanceIds: [id] })));
      else if (kind === EC2_KINDS.securityGroup) await unlessGone(() => this.client.send(new DeleteSecurityGroupCommand({ GroupId: id })));
      else if (kind === EC2_KINDS.keyPair) await unlessGone(() => this.client.send(new DeleteKeyPairCommand({ KeyName: id })));
      return "gone";
    } catch (error) {
      // A group stays in use for a while after its instances are gone.
      if (codeOf(error) === "DependencyViolation") return "busy";
      throw error;
    }
  }

  async listTagged(): Promise<TaggedResource[]> {
    const managed = [{ Name: `tag:${TAG_MANAGED}`, Values: ["true"] }];
    const found: TaggedResource[] = [];
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new DescribeInstancesCommand({
          Filters: [...managed, { Name: "instance-state-name", Values: ["pending", "running", "stopping", "stopped", "shutting-down"] }],
          NextToken: token,
        }),
      );
      for (const i of (out.Reservations ?? []).flatMap((r) => r.Instances ?? [])) found.push(...tagged(EC2_KINDS.instance, i.InstanceId, i.Tags));
      token = out.NextToken;
    } while (token);
    const groups = await this.client.send(new DescribeSecurityGroupsCommand({ Filters: managed }));
    for (const g of groups.SecurityGroups ?? []) found.push(...tagged(EC2_KINDS.securityGroup, g.GroupId, g.Tags));
    const keys = await this.client.send(new DescribeKeyPairsCommand({ Filters: managed }));
    for (const k of keys.KeyPairs ?? []) found.push(...tagged(EC2_KINDS.keyPair, k.KeyName, k.Tags));
    return found;
  }
}
