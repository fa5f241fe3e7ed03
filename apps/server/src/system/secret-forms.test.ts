import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { credentialEcho, startOpenStackDouble, type OpenStackDouble, type OpenStackOperation } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { queryDatabase, storeSnapshot } from "@benchwright/engine/test-access";

// A tester saw a password that a provider echoed in another escaping (a Python repr doubles
// backslashes) reach a 502 body, the execution record, stderr and the database. Here the
// OpenStack double echoes the password it was sent in every usual form, at several points of
// a prepare and of a sweep; none of those forms may show anywhere the server writes.

// Backslashes, both quotes, `+`, `/`, `%`, a space, non-ASCII and a character outside the BMP.
const PASSWORD = `Wq4Rz\\7"p'K+/%2F é€😀\\Mq9Zt`;
/** Runs of the password that survive any escaping or URL encoding: seeing one is a leak. */
const FRAGMENTS = ["Wq4Rz", "Mq9Zt"];
const FAST = { pollIntervalMs: 5, stateTimeoutMs: 5000, sshPollIntervalMs: 20, sshTimeoutMs: 3000 };

/** The password as Python itself writes it (OpenStack is Python), and as JavaScript does. */
function forms(user: string, secret: string): Record<string, string> {
  const script = `
import sys, json, base64, urllib.parse
user, s = sys.stdin.read().split("\\0")
print(json.dumps({
  "repr": repr(s),
  "repr_of_repr": repr(repr(s)),
  "json_ascii": json.dumps(s),
  "json": json.dumps(s, ensure_ascii=False),
  "quote": urllib.parse.quote(s),
  "quote_plus": urllib.parse.quote_plus(s),
  "base64": base64.b64encode(s.encode()).decode(),
  "base64url": base64.urlsafe_b64encode(s.encode()).decode(),
  "basic": base64.b64encode((user + ":" + s).encode()).decode(),
}))
`;
  const r = spawnSync("python3", ["-c", script], { input: `${user}\0${secret}`, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  const python = JSON.parse(r.stdout) as Record<string, string>;
  return {
    ...Object.fromEntries(Object.entries(python).map(([k, v]) => [`python ${k}`, v])),
    "as sent": secret,
    "JSON.stringify": JSON.stringify(secret),
    encodeURIComponent: encodeURIComponent(secret),
    URLSearchParams: new URLSearchParams({ p: secret }).toString().slice(2),
    "JSON of a repr": JSON.stringify(python.repr),
  };
}

/** Every row of every table of the store, whatever tables it has now. */
async function databaseDump(fx: Fixture): Promise<string> {
  const tables = await queryDatabase<{ table_schema: string; table_name: string }>(
    fx.engine,
    "SELECT table_schema, table_name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')",
  );
  const parts: unknown[] = [await storeSnapshot(fx.engine)];
  for (const t of tables) parts.push(await queryDatabase(fx.engine, `SELECT * FROM "${t.table_schema}"."${t.table_name}"`));
  return JSON.stringify(parts);
}

/** Every file under the data dir: step logs, work dirs. */
function filesUnder(dir: string): string {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const s = statSync(path);
    if (s.isDirectory()) out.push(filesUnder(path));
    else if (s.isFile()) out.push(`${path}\n${readFileSync(path, "utf8")}`);
  }
  return out.join("\n");
}

describe("a password echoed by the provider in other forms", () => {
  let double: OpenStackDouble;
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  /** Every response body and header set the server sent. */
  const seen: string[] = [];
  const see = (res: request.Response) => {
    seen.push(res.text ?? "", JSON.stringify(res.headers));
    return res;
  };

  const config = () => ({
    provider: {
      class: "cloud",
      name: "openstack",
      driver: "openstack",
      auth_url: double.authUrl,
      auth_version: "3.x_password",
      access_id: double.username,
      secret_key: PASSWORD,
      tenant: double.project,
    },
    small: { image: "debian-12", size: "m1.small", vm_user: "debian", platform: "debian_12", network: "private" },
  });

  beforeAll(async () => {
    // No SSH is reached: every failure comes before the machine would answer.
    double = await startOpenStackDouble({ sshHost: "127.0.0.1", password: PASSWORD });
    fx = await openFixture({ engine: { outbound: { allowPrivate: true }, providers: { cloud: FAST } } });
    api = request(fx.app);
  }, 30_000);

  afterAll(async () => {
    await fx?.close();
    await double?.stop();
  });

  it("echoes, unscrubbed, every form the test looks for (so that the test can fail)", () => {
    const echo = credentialEcho(double.username, PASSWORD);
    const f = forms(double.username, PASSWORD);
    for (const name of ["python repr", "JSON.stringify", "URLSearchParams", "python base64", "python basic"]) {
      const form = /^(["']).*\1$/s.test(f[name]) ? f[name].slice(1, -1) : f[name];
      expect(echo, name).toContain(form);
    }
  });

  const prepareFailures: Array<[string, OpenStackOperation, { status?: number; message?: string }]> = [
    ["Keystone rejects the login, echoing what it was sent", "auth", { status: 400, message: "Invalid input for field 'identity/password/user/password'" }],
    ["Nova's server goes into ERROR with a fault echoing the credentials", "serverBuild", { message: "Build of instance aborted" }],
    ["Neutron fails the floating IP", "createFloatingIp", { status: 409, message: "No more IP addresses available" }],
  ];

  for (const [what, operation, failure] of prepareFailures) {
    it(`answers 502 on prepare when ${what}`, async () => {
      const session = see(await api.post("/api/v1/sessions/").send({ config: config() }).expect(200)).body.id as string;
      const exec = see(await api.post(`/api/v1/sessions/${session}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body.id as string;
      double.failNext(operation, { ...failure, echoCredentials: true });
      const failed = see(await api.post(`/api/v1/executions/${exec}/prepare`));
      expect(failed.status, failed.text).toBe(502);
      expect(failed.body.code).toBe("provider_failed");
      expect(failed.body.detail).toContain(failure.message);
      expect(failed.body.detail).toContain("***");
      see(await api.get(`/api/v1/executions/${exec}`).expect(200));
      see(await api.get(`/api/v1/executions/${exec}/steps/prepare/1`));
      see(await api.get(`/api/v1/executions/${exec}/logs`));
      see(await api.get("/api/v1/executions/").expect(200));
      see(await api.get(`/api/v1/sessions/${session}/executions/`).expect(200));
      see(await api.get(`/api/v1/sessions/${session}`).expect(200));
      see(await api.delete(`/api/v1/sessions/${session}`).expect(204));
    }, 60_000);
  }

  it("answers 502 on a sweep when Neutron's listing fails echoing the credentials", async () => {
    writeFileSync(join(fx.configDir, "providers", "echoing.json"), JSON.stringify(config()));
    double.failNext("listFloatingIps", { status: 500, message: "Internal error", echoCredentials: true });
    const failed = see(await api.post("/api/v1/admin/sweep").send({ provider: "echoing" }));
    expect(failed.status, failed.text).toBe(502);
    expect(failed.body.detail).toContain("Internal error");
  });

  it("shows no form of the password in a response, a header, a log line, the database or a data file", async () => {
    const places: Record<string, string> = {
      "responses and headers": seen.join("\n"),
      "log lines": fx.logs.join("\n"),
      database: await databaseDump(fx),
      "data files": filesUnder(fx.dataDir),
    };
    expect(
      fx.logs.some((l) => l.includes("***")),
      "the failures were logged, masked",
    ).toBe(true);
    for (const [place, text] of Object.entries(places)) {
      for (const [name, form] of Object.entries(forms(double.username, PASSWORD))) {
        // The quotes around a repr or a JSON string are not the secret.
        const bare = /^(["']).*\1$/s.test(form) ? form.slice(1, -1) : form;
        expect(text.includes(bare), `the password, ${name}, in the ${place}`).toBe(false);
      }
      for (const fragment of FRAGMENTS) expect(text.includes(fragment), `a piece of the password in the ${place}`).toBe(false);
    }
  });
});
