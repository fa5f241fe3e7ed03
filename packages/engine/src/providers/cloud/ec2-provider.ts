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
  EC2Client,
  RunInstancesCommand,
  TerminateInstancesCommand,
  type Instance,
  type Tag,
} from "@aws-sdk/client-ec2";
import { BenchwrightError } from "../../errors.js";
import type { Machine, Provider, ProviderContext, ResolvedConfig, SweptResource } from "../provider.js";
import {
  cloudSettings,
  resourceName,
  TAG_MANAGED,
  TAG_SESSION,
  type CloudProviderOptions,
  type CloudSettings,
} from "./cloud-config.js";
import { pollUntil } from "./polling.js";
import { Attempts, createOrTearDown, SweepReport, tearDown, type SweepOptions } from "./lifecycle.js";
import { scrubberOf, type Scrubber } from "../../secrets/scrub.js";
import { waitForSsh } from "./wait-for-ssh.js";
import { EC2_KINDS } from "./ec2-kinds.js";

export { EC2_KINDS };

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

function isNotFound(error: unknown): boolean {
  return NOT_FOUND.has(codeOf(error));
}

function sessionTags(sessionId: string): Tag[] {
  return [
    { Key: TAG_SESSION, Value: sessionId },
    { Key: TAG_MANAGED, Value: "true" },
  ];
}

function tagValue(tags: Tag[] | undefined, key: string): string | null {
  return tags?.find((t) => t.Key === key)?.Value ?? null;
}

type Live = Array<{ kind: string; id: string; meta: Record<string, unknown> }>;

/** AWS EC2: a key pair, a security group letting SSH in, one instance per session. */
export class Ec2Provider implements Provider {
  private readonly settings: CloudSettings;
  private readonly client: EC2Client;
  private readonly scrubber: Scrubber;

  constructor(
    private readonly config: ResolvedConfig,
    options: CloudProviderOptions = {},
  ) {
    this.settings = cloudSettings(config, options);
    const s = this.settings;
    this.client =
      options.ec2Client ??
      new EC2Client({
        region: s.region,
        endpoint: s.endpoint,
        credentials: { accessKeyId: s.accessId, secretAccessKey: s.secretKey },
      });
    this.scrubber = scrubberOf(config);
  }

  ensureMachines(ctx: ProviderContext): Promise<Machine[]> {
    return createOrTearDown(
      "ec2",
      ctx,
      { scrubber: this.scrubber },
      async (log) => [await this.ensureInstance(ctx, log)],
      (log) => this.teardown(ctx, log),
    );
  }

  destroy(ctx: ProviderContext): Promise<void> {
    return tearDown("ec2", ctx, { scrubber: this.scrubber }, (log) => this.teardown(ctx, log));
  }

  private async step<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw this.scrubber.fail(`ec2 ${what} failed`, error);
    }
  }

  private async ensureInstance(ctx: ProviderContext, log: (line: string) => void): Promise<Machine> {
    const s = this.settings;
    const live: Live = await ctx.resources.live();
    let key = this.knownKey(live);

    for (const entry of live.filter((r) => r.kind === EC2_KINDS.instance)) {
      const instance = await this.step("describing an instance", () => this.describeInstance(entry.id));
      const state = instance?.State?.Name;
      if ((state === "pending" || state === "running") && key) {
        log(`ec2: session already has instance ${entry.id} (${state})`);
        return this.finish(ctx, entry.id, Number(entry.meta.ssh_port) || s.sshPort, key.privateKey, log);
      }
      // Unusable (stopped, or gone behind our back): make sure it is gone, then replace it.
      if (instance && state !== "terminated") await this.terminateAndWait([entry.id], ctx);
      await ctx.resources.markDestroyed(EC2_KINDS.instance, entry.id);
    }

    key ??= await this.createKeyPair(ctx, log);
    const groupId = await this.securityGroup(ctx, live, log);
    const imageId = await this.resolveImage();

    const name = resourceName(ctx.sessionId);
    const tags = sessionTags(ctx.sessionId);
    const run = await this.step("launching the instance", () =>
      this.client.send(
        new RunInstancesCommand({
          ImageId: imageId,
          InstanceType: s.size as never,
          KeyName: key.name,
          MinCount: 1,
          MaxCount: 1,
          SecurityGroupIds: [groupId],
          SubnetId: s.network,
          TagSpecifications: [
            { ResourceType: "instance", Tags: [...tags, { Key: "Name", Value: name }] },
            { ResourceType: "volume", Tags: tags },
          ],
        }),
      ),
    );
    const instanceId = run.Instances?.[0]?.InstanceId;
    if (!instanceId) throw new BenchwrightError("provider_failed", "ec2 launching the instance failed: no instance id returned");
    await ctx.resources.record(EC2_KINDS.instance, instanceId, { region: s.region, ssh_port: s.sshPort, key_name: key.name });
    log(`ec2: launched instance ${instanceId} (${s.size}, ${imageId})`);
    return this.finish(ctx, instanceId, s.sshPort, key.privateKey, log);
  }

  /** The key to log in with, when one exists already: configured, or made earlier for the session. */
  private knownKey(live: Live): { name: string; privateKey: string } | undefined {
    const s = this.settings;
    if (s.keyName && s.sshPrivateKey) return { name: s.keyName, privateKey: s.sshPrivateKey };
    const made = live.find((r) => r.kind === EC2_KINDS.keyPair && typeof r.meta.private_key === "string");
    if (!made) return undefined;
    const privateKey = made.meta.private_key as string;
    this.scrubber.add(privateKey);
    return { name: made.id, privateKey };
  }

  private async createKeyPair(ctx: ProviderContext, log: (line: string) => void) {
    const name = resourceName(ctx.sessionId);
    const out = await this.step("creating the key pair", () =>
      this.client.send(
        new CreateKeyPairCommand({
          KeyName: name,
          KeyType: "rsa",
          KeyFormat: "pem",
          TagSpecifications: [{ ResourceType: "key-pair", Tags: sessionTags(ctx.sessionId) }],
        }),
      ),
    );
    const privateKey = out.KeyMaterial;
    if (!privateKey) throw new BenchwrightError("provider_failed", "ec2 creating the key pair failed: no key material returned");
    this.scrubber.add(privateKey);
    // The lead seals meta fields named `private_key` at rest.
    await ctx.resources.record(EC2_KINDS.keyPair, name, { region: this.settings.region, private_key: privateKey.trim() + "\n" });
    log(`ec2: created key pair ${name}`);
    return { name, privateKey: privateKey.trim() + "\n" };
  }

  private async securityGroup(ctx: ProviderContext, live: Live, log: (line: string) => void): Promise<string> {
    const s = this.settings;
    if (s.securityGroup) {
      if (/^sg-[0-9a-f]+$/.test(s.securityGroup)) return s.securityGroup;
      const found = await this.step("finding the security group", () =>
        this.client.send(new DescribeSecurityGroupsCommand({ Filters: [{ Name: "group-name", Values: [s.securityGroup!] }] })),
      );
      const id = found.SecurityGroups?.[0]?.GroupId;
      if (!id) throw new BenchwrightError("provider_failed", `ec2: no security group named '${s.securityGroup}'`);
      return id;
    }
    let groupId = live.find((r) => r.kind === EC2_KINDS.securityGroup)?.id;
    if (!groupId) {
      const vpcId = s.network ? await this.vpcOfSubnet(s.network) : undefined;
      const name = resourceName(ctx.sessionId);
      const out = await this.step("creating the security group", () =>
        this.client.send(
          new CreateSecurityGroupCommand({
            GroupName: name,
            Description: `Benchwright session ${ctx.sessionId}`,
            VpcId: vpcId,
            TagSpecifications: [{ ResourceType: "security-group", Tags: sessionTags(ctx.sessionId) }],
          }),
        ),
      );
      if (!out.GroupId) throw new BenchwrightError("provider_failed", "ec2 creating the security group failed: no group id returned");
      groupId = out.GroupId;
      await ctx.resources.record(EC2_KINDS.securityGroup, groupId, { region: s.region, name });
      log(`ec2: created security group ${groupId}`);
    }
    const id = groupId;
    await this.step("opening SSH in the security group", async () => {
      try {
        await this.client.send(
          new AuthorizeSecurityGroupIngressCommand({
            GroupId: id,
            IpPermissions: [
              { IpProtocol: "tcp", FromPort: s.sshPort, ToPort: s.sshPort, IpRanges: [{ CidrIp: "0.0.0.0/0", Description: "SSH" }] },
            ],
          }),
        );
      } catch (error) {
        // A group reused from an earlier attempt already has the rule.
        if (codeOf(error) !== "InvalidPermission.Duplicate") throw error;
      }
    });
    return id;
  }

  private async vpcOfSubnet(subnetId: string): Promise<string | undefined> {
    const out = await this.step("finding the subnet", () =>
      this.client.send(new DescribeSubnetsCommand({ SubnetIds: [subnetId] })),
    );
    return out.Subnets?.[0]?.VpcId;
  }

  private async resolveImage(): Promise<string> {
    const image = this.settings.image;
    if (/^ami-[0-9a-f]+$/.test(image)) return image;
    const out = await this.step("finding the image", () =>
      this.client.send(new DescribeImagesCommand({ Filters: [{ Name: "name", Values: [image] }] })),
    );
    const newest = [...(out.Images ?? [])].sort((a, b) => (b.CreationDate ?? "").localeCompare(a.CreationDate ?? ""))[0];
    if (!newest?.ImageId) {
      throw new BenchwrightError("provider_failed", `ec2: no image named '${image}' in region ${this.settings.region}`);
    }
    return newest.ImageId;
  }

  private async describeInstance(id: string): Promise<Instance | undefined> {
    try {
      const out = await this.client.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
      return out.Reservations?.flatMap((r) => r.Instances ?? []).find((i) => i.InstanceId === id);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  private async finish(
    ctx: ProviderContext,
    instanceId: string,
    sshPort: number,
    privateKey: string,
    log: (line: string) => void,
  ): Promise<Machine> {
    const s = this.settings;
    const instance = await pollUntil(
      async () => {
        // Just after launch the instance may not be visible yet (eventual consistency).
        const i = await this.step("waiting for the instance", () => this.describeInstance(instanceId));
        const state = i?.State?.Name;
        if (state === "running") return i;
        if (state && state !== "pending") {
          const reason = i?.StateReason?.Message ? ` (${i.StateReason.Message})` : "";
          throw new BenchwrightError("provider_failed", `ec2: instance ${instanceId} is ${state}${reason}`);
        }
        return undefined;
      },
      { timeoutMs: s.stateTimeoutMs, intervalMs: s.pollIntervalMs, what: `ec2: instance ${instanceId} was not running`, signal: ctx.signal },
    );
    const ip = instance.PublicIpAddress ?? instance.PrivateIpAddress;
    if (!ip) throw new BenchwrightError("provider_failed", `ec2: instance ${instanceId} has no IP address`);
    log(`ec2: instance ${instanceId} is running at ${ip}; waiting for SSH on port ${sshPort}`);
    await waitForSsh(ip, sshPort, { timeoutMs: s.sshTimeoutMs, intervalMs: s.sshPollIntervalMs, attempts: s.sshAttempts, signal: ctx.signal });
    log(`ec2: SSH answers on ${ip}:${sshPort}`);
    return {
      id: instanceId,
      ip,
      platform: s.platform,
      workRoot: "~/.benchwright",
      allowInstall: true,
      ssh: { host: ip, port: sshPort, username: s.vmUser, privateKey },
    };
  }

  private async terminateAndWait(ids: string[], ctx?: ProviderContext): Promise<void> {
    for (const id of ids) {
      await this.step(`terminating instance ${id}`, async () => {
        try {
          await this.client.send(new TerminateInstancesCommand({ InstanceIds: [id] }));
        } catch (error) {
          if (!isNotFound(error)) throw error;
        }
      });
    }
    for (const id of ids) {
      await pollUntil(
        async () => {
          const i = await this.step("waiting for termination", () => this.describeInstance(id));
          return !i || i.State?.Name === "terminated" ? true : undefined;
        },
        {
          timeoutMs: this.settings.stateTimeoutMs,
          intervalMs: this.settings.pollIntervalMs,
          what: `ec2: instance ${id} was not terminated`,
          signal: ctx?.signal,
        },
      );
    }
  }

  /** A group stays in use for a while after its instances are gone: retry, bounded. */
  private async deleteSecurityGroup(id: string): Promise<void> {
    await pollUntil(
      async () => {
        try {
          await this.client.send(new DeleteSecurityGroupCommand({ GroupId: id }));
          return true;
        } catch (error) {
          if (isNotFound(error)) return true;
          if (codeOf(error) === "DependencyViolation") return undefined;
          throw this.scrubber.fail(`ec2 deleting security group ${id} failed`, error);
        }
      },
      { timeoutMs: this.settings.stateTimeoutMs, intervalMs: this.settings.pollIntervalMs, what: `ec2: security group ${id} stayed in use` },
    );
  }

  private async deleteKeyPair(name: string): Promise<void> {
    await this.step(`deleting key pair ${name}`, async () => {
      try {
        await this.client.send(new DeleteKeyPairCommand({ KeyName: name }));
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    });
  }

  /** Instances first (a group in use cannot go), then groups, then key pairs; every step is tried. */
  private async teardown(ctx: ProviderContext, log: (line: string) => void): Promise<void> {
    const live = await ctx.resources.live();
    const attempts = new Attempts(this.scrubber);
    const attempt = attempts.run.bind(attempts);
    const instances = live.filter((r) => r.kind === EC2_KINDS.instance).map((r) => r.id);
    if (instances.length > 0) {
      await attempt("terminating instances", async () => {
        await this.terminateAndWait(instances, ctx);
        for (const id of instances) {
          await ctx.resources.markDestroyed(EC2_KINDS.instance, id);
          log(`ec2: terminated instance ${id}`);
        }
      });
    }
    for (const group of live.filter((r) => r.kind === EC2_KINDS.securityGroup)) {
      await attempt(`deleting security group ${group.id}`, async () => {
        await this.deleteSecurityGroup(group.id);
        await ctx.resources.markDestroyed(EC2_KINDS.securityGroup, group.id);
        log(`ec2: deleted security group ${group.id}`);
      });
    }
    for (const key of live.filter((r) => r.kind === EC2_KINDS.keyPair)) {
      await attempt(`deleting key pair ${key.id}`, async () => {
        await this.deleteKeyPair(key.id);
        await ctx.resources.markDestroyed(EC2_KINDS.keyPair, key.id);
        log(`ec2: deleted key pair ${key.id}`);
      });
    }
    attempts.throwIfAny();
  }

  async sweep(
    _config: ResolvedConfig,
    options: SweepOptions,
  ): Promise<SweptResource[]> {
    const report = new SweepReport("ec2", this.config.name, options, this.scrubber);
    const managed = [{ Name: `tag:${TAG_MANAGED}`, Values: ["true"] }];

    try {
      const instances: Instance[] = [];
      let token: string | undefined;
      do {
        const out = await this.client.send(
          new DescribeInstancesCommand({
            Filters: [...managed, { Name: "instance-state-name", Values: ["pending", "running", "stopping", "stopped", "shutting-down"] }],
            NextToken: token,
          }),
        );
        instances.push(...(out.Reservations ?? []).flatMap((r) => r.Instances ?? []));
        token = out.NextToken;
      } while (token);
      // One call per instance so that one failure does not keep the others alive.
      for (const i of instances) {
        const session = tagValue(i.Tags, TAG_SESSION);
        if (i.InstanceId && (await report.orphaned(session))) {
          await report.destroy(EC2_KINDS.instance, i.InstanceId, session, () => this.terminateAndWait([i.InstanceId!]));
        }
      }

      const groups = await this.client.send(new DescribeSecurityGroupsCommand({ Filters: managed }));
      for (const g of groups.SecurityGroups ?? []) {
        const session = tagValue(g.Tags, TAG_SESSION);
        if (g.GroupId && (await report.orphaned(session))) {
          await report.destroy(EC2_KINDS.securityGroup, g.GroupId, session, () => this.deleteSecurityGroup(g.GroupId!));
        }
      }
      const keys = await this.client.send(new DescribeKeyPairsCommand({ Filters: managed }));
      for (const k of keys.KeyPairs ?? []) {
        const session = tagValue(k.Tags, TAG_SESSION);
        if (k.KeyName && (await report.orphaned(session))) {
          await report.destroy(EC2_KINDS.keyPair, k.KeyName, session, () => this.deleteKeyPair(k.KeyName!));
        }
      }
    } catch (error) {
      throw this.scrubber.fail("ec2 sweep failed", error);
    }
    return report.resources;
  }
}

