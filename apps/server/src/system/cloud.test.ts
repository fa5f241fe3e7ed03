import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startAzureDouble, startGceDouble, startOpenStackDouble, startSshd, type SshdHarness } from "@benchwright/testing";
import { createEc2Double } from "@benchwright/testing/ec2-double";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { queryDatabase } from "@benchwright/engine/test-access";

// No cloud is reachable here: the real EC2 SDK client runs against aws-sdk-client-mock, the
// OpenStack client, Google's Compute client (its REST transport) and Azure's clients against
// local HTTP doubles (Azure's over TLS, its certificate trusted through `azureCa`).
// All keep state and hand out the address of a real sshd, so prepare and run really execute
// over SSH on "the instance".

const ACCESS_ID = "AKIAEXAMPLEACCESSID42";
const SECRET_KEY = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
// A machine may take ten minutes to run, far beyond any test here: only the step's abort ends a
// wait on one that never boots.
// Bounds, not waits: SSH to the harness took over 3 s under CI's load (a prepare answered 502).
const FAST = { pollIntervalMs: 5, stateTimeoutMs: 600_000, sshPollIntervalMs: 20, sshTimeoutMs: 30_000 };

interface Cloud {
  name: string;
  config: () => Record<string, unknown>;
  /** Resources of ours the double still holds. */
  leftovers: () => unknown[];
  injectFailures: Array<() => void>;
  /** While held, machines being made never finish booting. */
  holdBoot: (hold: boolean) => void;
  /** Machines the double holds, whatever their state. */
  machines: () => number;
  orphan: () => Promise<string>;
  stop: () => Promise<void>;
  secrets: () => string[];
}

let sshd: SshdHarness;
const everything: string[] = [];

beforeAll(async () => {
  sshd = await startSshd();
});
afterAll(async () => {
  await sshd?.stop();
});

async function ec2Cloud(): Promise<{ cloud: Cloud; providers: object }> {
  const double = createEc2Double({ sshHost: sshd.host, sshPort: sshd.port, privateKey: sshd.privateKey });
  const cloud: Cloud = {
    name: "ec2",
    config: () => ({
      provider: {
        class: "benchsuite.stdlib.provider.libcloud.LibcloudComputeProvider",
        name: "aws",
        driver: "ec2",
        access_id: ACCESS_ID,
        secret_key: SECRET_KEY,
        region: "eu-west-1",
      },
      micro: { image: "ubuntu-jammy-22.04-amd64-server-*", size: "t3.micro", vm_user: sshd.username, platform: "debian_12" },
    }),
    leftovers: () => {
      const inv = double.inventory();
      return [...inv.instances.filter((i) => i.state !== "terminated"), ...inv.keyPairs, ...inv.securityGroups.filter((g) => g.name !== "default")];
    },
    injectFailures: [
      () => double.failNext("CreateKeyPair", "KeyPairLimitExceeded"),
      () => double.failNext("CreateSecurityGroup", "SecurityGroupLimitExceeded"),
      () => double.failNext("RunInstances", "InstanceLimitExceeded"),
      () => double.failNext("InstanceLaunch"),
    ],
    holdBoot: (hold) => double.holdBoot(hold),
    machines: () => double.inventory().instances.length,
    orphan: async () => "",
    stop: async () => double.restore(),
    secrets: () => [ACCESS_ID, SECRET_KEY],
  };
  return { cloud, providers: { cloud: { ec2Client: double.client, sshPort: sshd.port, ...FAST } } };
}

async function openstackCloud(): Promise<{ cloud: Cloud; providers: object }> {
  const double = await startOpenStackDouble({ sshHost: sshd.host, privateKey: sshd.privateKey });
  const cloud: Cloud = {
    name: "openstack",
    config: () => ({
      provider: {
        class: "cloud",
        name: "openstack",
        driver: "openstack",
        auth_url: double.authUrl,
        auth_version: "3.x_password",
        access_id: double.username,
        secret_key: double.password,
        tenant: double.project,
      },
      small: {
        image: "ubuntu-22.04",
        size: "m1.small",
        vm_user: sshd.username,
        platform: "debian_12",
        network: "private",
        security_group: "default",
      },
    }),
    leftovers: () => {
      const inv = double.inventory() as unknown as Record<string, unknown[]>;
      return Object.values(inv).flat();
    },
    injectFailures: [
      () => double.failNext("createKeypair", { status: 403, message: "Quota exceeded for key pairs" }),
      () => double.failNext("createServer", { status: 413, message: "Quota exceeded for instances" }),
      () => double.failNext("serverBuild"),
      () => double.failNext("createFloatingIp", { status: 409, message: "No more IP addresses available" }),
    ],
    holdBoot: (hold) => double.holdBoot(hold),
    machines: () => double.inventory().servers.length,
    orphan: async () => double.seedServer({ "benchwright:managed": "true", "benchwright:session": randomUUID() }),
    stop: () => double.stop(),
    secrets: () => [double.password, ...double.tokens()],
  };
  return { cloud, providers: { cloud: { sshPort: sshd.port, ...FAST } } };
}

async function gceCloud(): Promise<{ cloud: Cloud; providers: object }> {
  // GCE's guest agent puts the metadata's SSH keys into authorized_keys: here, the sshd's.
  const double = await startGceDouble({ sshHost: sshd.host, guestAgent: (key) => sshd.authorize(key) });
  const secretKey = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQCgcefake\n-----END PRIVATE KEY-----\n";
  const cloud: Cloud = {
    name: "gce",
    config: () => ({
      provider: {
        class: "cloud",
        name: "gcp",
        driver: "gce",
        access_id: "bench@bench-project.iam.gserviceaccount.com",
        secret_key: secretKey,
        project: double.project,
        region: double.zone,
      },
      small: {
        image: "projects/debian-cloud/global/images/family/debian-12",
        size: "e2-small",
        vm_user: sshd.username,
        platform: "debian_12",
      },
    }),
    leftovers: () => {
      const inv = double.inventory();
      return [...inv.instances.filter((i) => i.labels["benchwright-managed"] === "true"), ...inv.firewalls];
    },
    injectFailures: [
      () => double.failNext("insertFirewall", { status: 403, message: "Quota 'FIREWALLS' exceeded" }),
      () => double.failNext("insertInstance", { status: 403, message: "Quota 'CPUS' exceeded" }),
      () => double.failNext("instanceBoot"),
    ],
    holdBoot: (hold) => double.holdBoot(hold),
    machines: () => double.inventory().instances.length,
    orphan: async () => double.seedInstance({ "benchwright-managed": "true", "benchwright-session": randomUUID() }),
    stop: () => double.stop(),
    secrets: () => [double.token, secretKey],
  };
  return { cloud, providers: { cloud: { gceClient: double.clientOptions, sshPort: sshd.port, ...FAST } } };
}

async function azureCloud(): Promise<{ cloud: Cloud; providers: object }> {
  // Azure's agent puts the VM's SSH keys into authorized_keys: here, the sshd's.
  const double = await startAzureDouble({ sshHost: sshd.host, guestAgent: (key) => sshd.authorize(key) });
  const ours = (x: { tags: Record<string, string> }) => x.tags["benchwright:managed"] === "true";
  const cloud: Cloud = {
    name: "azure",
    config: () => ({
      provider: { class: "cloud", name: "azure", driver: "azure", ...double.provider },
      small: { image: "Debian:debian-12:12-gen2:latest", size: "Standard_B2s", vm_user: sshd.username, platform: "debian_12", network: double.subnet },
    }),
    leftovers: () => {
      const inv = double.inventory();
      return [...inv.vms.filter(ours), ...inv.nics, ...inv.publicIps, ...inv.securityGroups, ...inv.applicationSecurityGroups];
    },
    injectFailures: [
      () => double.failNext("putSecurityGroup", { status: 409, error: "QuotaExceeded", message: "Quota exceeded for resources: NetworkSecurityGroups." }),
      () => double.failNext("putNic", { async: true, error: "InternalServerError", message: "An error occurred." }),
      () => double.failNext("putVm", { status: 409, error: "OperationNotAllowed", message: "Operation results in exceeding approved Cores quota." }),
      () => double.failNext("vmBoot"),
    ],
    holdBoot: (hold) => double.holdBoot(hold),
    machines: () => double.inventory().vms.length,
    orphan: async () => double.seedVm({ "benchwright:managed": "true", "benchwright:session": randomUUID() }),
    stop: () => double.stop(),
    secrets: () => [double.clientSecret, double.clientId, ...double.tokens()],
  };
  return { cloud, providers: { cloud: { azureCa: double.ca, sshPort: sshd.port, ...FAST } } };
}

for (const make of [ec2Cloud, openstackCloud, gceCloud, azureCloud]) {
  describe(`${make.name.replace("Cloud", "")} through the REST API`, () => {
    let cloud: Cloud;
    let fx: Fixture;
    let api: ReturnType<typeof request>;
    const seen = (res: request.Response) => {
      everything.push(res.text ?? "", JSON.stringify(res.headers));
      return res;
    };

    beforeAll(async () => {
      const made = await make();
      cloud = made.cloud;
      fx = await openFixture({ engine: { outbound: { allowPrivate: true }, providers: made.providers } });
      api = request(fx.app);
    }, 30_000);

    afterAll(async () => {
      everything.push(...fx.logs);
      await fx.close();
      await cloud.stop();
    });

    async function session(): Promise<string> {
      return seen(await api.post("/api/v1/sessions/").send({ config: cloud.config() }).expect(200)).body.id;
    }
    async function execution(sessionId: string, tool: string, workload: string, params?: Record<string, number>): Promise<string> {
      return seen(await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool, workload, params }).expect(200)).body.id;
    }

    it("prepares, runs idle and sysbench over SSH on the instance it created, and leaves nothing behind", async () => {
      const id = await session();
      // sysbench for 1 s rather than its default 2: on each cloud, the run over SSH is what counts.
      for (const [tool, workload, metric, params] of [
        ["idle", "idle0", "idle_seconds", {}],
        ["sysbench", "threads", "events_per_second", { duration: 1 }],
      ] as const) {
        const exec = await execution(id, tool, workload, params);
        const prepared = seen(await api.post(`/api/v1/executions/${exec}/prepare`));
        expect(prepared.status, prepared.text).toBe(200);
        const ran = seen(await api.post(`/api/v1/executions/${exec}/run`));
        expect(ran.status, ran.text).toBe(200);
        const done = seen(await api.get(`/api/v1/executions/${exec}`).expect(200)).body;
        expect(done.exec_env.vms).toHaveLength(1);
        expect(done.exec_env.vms[0].ip).toBe(sshd.host);
        expect(done.exec_env.vms[0].facts.kernel).toBeTruthy();
        // What the cloud made it from and as what (its double's answer, else the configured image and size).
        expect(done.exec_env.vms[0].facts).toMatchObject({ image: expect.stringMatching(/\S/), instance_type: expect.stringMatching(/\S/) });
        expect(done.metrics.map((m: { name: string }) => m.name)).toContain(metric);
        // The run's record says what produced its figures.
        expect(done.provenance).toMatchObject({ tool, workload, benchwright_version: expect.any(String) });
      }
      expect(cloud.leftovers().length).toBeGreaterThan(0);
      seen(await api.delete(`/api/v1/sessions/${id}`).expect(204));
      expect(cloud.leftovers()).toEqual([]);
    }, 120_000);

    it("destroys what it made when creation fails at any step, and the session can try again", async () => {
      for (const inject of cloud.injectFailures) {
        const id = await session();
        const exec = await execution(id, "idle", "idle0");
        inject();
        const failed = seen(await api.post(`/api/v1/executions/${exec}/prepare`));
        expect(failed.status).toBe(502);
        expect(failed.body.code).toBe("provider_failed");
        expect(failed.body.state).toBe("prepare_failed");
        expect(cloud.leftovers()).toEqual([]);
        expect(seen(await api.post(`/api/v1/executions/${exec}/prepare`)).status).toBe(200);
        seen(await api.delete(`/api/v1/sessions/${id}`).expect(204));
        expect(cloud.leftovers()).toEqual([]);
      }
    }, 120_000);

    it("ends a prepare waiting on a machine that never boots when the session is deleted, and leaves nothing behind", async () => {
      const id = await session();
      const exec = await execution(id, "idle", "idle0");
      cloud.holdBoot(true);
      try {
        const preparing = api.post(`/api/v1/executions/${exec}/prepare`).then((res) => seen(res));
        while (cloud.machines() === 0) await new Promise((r) => setTimeout(r, 10));
        seen(await api.delete(`/api/v1/sessions/${id}`).expect(204));
        const prepared = await preparing;
        expect(prepared.status, prepared.text).toBe(502);
        expect(prepared.body.detail).toContain("the session was deleted");
        expect(seen(await api.get(`/api/v1/executions/${exec}`).expect(200)).body.state).toBe("prepare_failed");
        expect(cloud.leftovers()).toEqual([]);
      } finally {
        cloud.holdBoot(false);
      }
    }, 60_000);

    it("sweeps resources of sessions that are gone", async () => {
      writeFileSync(join(fx.configDir, "providers", "cloud.json"), JSON.stringify(cloud.config()));
      const id = await session();
      const exec = await execution(id, "idle", "idle0");
      expect(seen(await api.post(`/api/v1/executions/${exec}/prepare`)).status).toBe(200);
      // A server that died mid-deletion: the session is gone but its instance is not.
      await queryDatabase(fx.engine, "UPDATE sessions SET state = 'deleted' WHERE id = $1", [id]);
      const orphan = await cloud.orphan();
      const dry = seen(await api.post("/api/v1/admin/sweep").send({ provider: "cloud", dry_run: true }).expect(200)).body;
      expect(dry.resources.length).toBeGreaterThan(0);
      expect(dry.resources.every((r: { destroyed: boolean }) => !r.destroyed)).toBe(true);
      expect(cloud.leftovers().length).toBeGreaterThan(0);
      const report = seen(await api.post("/api/v1/admin/sweep").send({ provider: "cloud" }).expect(200)).body;
      expect(report.resources.filter((r: { destroyed: boolean }) => r.destroyed).length).toBeGreaterThan(0);
      if (orphan) expect(report.resources.map((r: { id: string }) => r.id)).toContain(orphan);
      expect(cloud.leftovers()).toEqual([]);
    }, 120_000);

    it("never shows a credential in a response or a log line", () => {
      everything.push(...fx.logs);
      const text = everything.join("\n");
      for (const secret of [...cloud.secrets(), sshd.privateKey.split("\n")[1]]) {
        expect(text.includes(secret), `a credential leaked`).toBe(false);
      }
    });
  });
}
