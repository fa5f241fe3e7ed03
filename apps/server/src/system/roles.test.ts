import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { connect, createServer, type AddressInfo } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { loadCatalog } from "@benchwright/catalog";
import { startSshd, type SshdHarness } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";

interface Metric {
  name: string;
  value: number;
  unit: string;
  vm?: string;
  role?: string;
}

/** Processes of this machine whose command line holds `text` (both sshds are on it). */
function processesWith(text: string): string[] {
  try {
    return execFileSync("pgrep", ["-af", "--", text], { encoding: "utf8" })
      .split("\n")
      .filter((l) => l && !l.includes("pgrep"));
  } catch {
    return [];
  }
}

/**
 * A machine that is not the session's: a network namespace with a veth pair to this host
 * (10.231.N.2 there, 10.231.N.1 here). Needs root, as the SSH tests do.
 */
async function otherMachine(): Promise<{ connects(port: number): boolean; remove(): void }> {
  const n = process.pid % 250;
  const [ns, here, there] = [`bwguard${process.pid}`, `bwg${process.pid}a`, `bwg${process.pid}b`];
  const ip = (...args: string[]) => execFileSync("ip", args, { stdio: "pipe" });
  const remove = () => {
    for (const args of [
      ["netns", "del", ns],
      ["link", "del", here],
    ]) {
      try {
        ip(...args);
      } catch {
        // Gone already (the pair goes with the namespace).
      }
    }
  };
  try {
    ip("netns", "add", ns);
    ip("link", "add", here, "type", "veth", "peer", "name", there);
    ip("link", "set", there, "netns", ns);
    ip("addr", "add", `10.231.${n}.1/30`, "dev", here);
    ip("link", "set", here, "up");
    ip("netns", "exec", ns, "ip", "addr", "add", `10.231.${n}.2/30`, "dev", there);
    ip("netns", "exec", ns, "ip", "link", "set", there, "up");
  } catch (e) {
    remove();
    throw e;
  }
  return {
    connects(port) {
      try {
        ip("netns", "exec", ns, "timeout", "2", "bash", "-c", `exec 3<>/dev/tcp/10.231.${n}.1/${port}`);
        return true;
      } catch {
        return false;
      }
    },
    remove,
  };
}

/** Whether a TCP connection to 127.0.0.1:port is accepted. */
function connectsLocally(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.setTimeout(2000, () => (socket.destroy(), resolve(false)));
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

/** The run's log as the API serves it. */
async function runLog(api: ReturnType<typeof request>, id: string): Promise<string> {
  return (await api.get(`/api/v1/executions/${id}/logs?step=run`).expect(200)).text;
}

/** The run's log once it holds `text`, or as it is after `looks` looks 100 ms apart. */
async function runLogWith(api: ReturnType<typeof request>, id: string, text: string, looks: number): Promise<string> {
  let log = await runLog(api, id);
  for (let i = 0; i < looks && !log.includes(text); i++) {
    await new Promise((r) => setTimeout(r, 100));
    log = await runLog(api, id);
  }
  return log;
}

/** The execution once it no longer runs, or as it is after `looks` looks 250 ms apart. */
async function settledExecution(api: ReturnType<typeof request>, id: string, looks: number) {
  let execution = (await api.get(`/api/v1/executions/${id}`).expect(200)).body;
  for (let i = 0; i < looks && execution.state === "running"; i++) {
    await new Promise((r) => setTimeout(r, 250));
    execution = (await api.get(`/api/v1/executions/${id}`).expect(200)).body;
  }
  return execution;
}

// Workloads with a server role and a client role, on two hosts: two private sshds on loopback,
// each its own existing host. The server is started by the run and stopped by it.
describe("machine roles on two hosts over SSH", () => {
  const catalog = loadCatalog();
  let serverHost: SshdHarness;
  let clientHost: SshdHarness;
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let sessionId: string;

  beforeAll(async () => {
    [serverHost, clientHost] = await Promise.all([startSshd(), startSshd()]);
    fx = await openFixture();
    api = request(fx.app);
    // A server role that leaves a process behind and fails before it is ready.
    mkdirSync(join(fx.configDir, "benchmarks"), { recursive: true });
    writeFileSync(
      join(fx.configDir, "benchmarks", "pair.yaml"),
      [
        "id: pair",
        "tool_name: Pair",
        "parser: keyvalue",
        "roles: { server: { serves: true }, client: {} }",
        "workloads:",
        "  - id: failing_server",
        "    categories: [test]",
        "    scripts:",
        "      run@server: |",
        "        sleep 3141 &",
        "        echo the server cannot start",
        "        exit 4",
        "      run@client: echo BW_METRIC never 1 s",
        "  - id: dying_server",
        "    categories: [test]",
        "    scripts:",
        "      run@server: |",
        "        sleep 2718 &",
        "        bw_ready port=1",
        "        sleep 0.2",
        "        exit 5",
        "      run@client: sleep 1; exit 6",
        "  - id: slow_client",
        "    categories: [test]",
        "    scripts:",
        "      run@server: |",
        "        echo the server says hello",
        "        bw_ready port=1",
        "        sleep 1618",
        "      run@client: |",
        "        echo the client starts",
        "        sleep 3",
        "        echo the client ends",
        "        bw_metric waited 3 s",
        "  - id: slow_server",
        "    categories: [test]",
        "    scripts:",
        "      run@server: |",
        "        echo the server is starting",
        "        sleep 3",
        "        bw_ready port=1",
        "        sleep 1619",
        "      run@client: |",
        "        echo the client starts",
        "        bw_metric waited 0 s",
        // Scripts that print the step's secret every way they can, then fail.
        "  - id: telling",
        "    categories: [test]",
        "    scripts:",
        "      run@server: |",
        '        echo "server has $BW_STEP_SECRET"',
        "        bw_ready port=1",
        "        sleep 1621",
        "      run@client: |",
        "        printf 'client has %s' \"${BW_STEP_SECRET:0:9}\"; sleep 0.5; printf '%s\\n' \"${BW_STEP_SECRET:9}\"",
        "        cat env.sh",
        '        echo "b64 has $(printf %s "$BW_STEP_SECRET" | base64 -w0)"',
        '        echo "stderr has $BW_STEP_SECRET" >&2',
        "        exit 7",
        // A server role behind the guard, for as long as the client waits: until the test has
        // looked at the guard and leaves a file in the client's dir (at most two minutes).
        "  - id: guarded",
        "    categories: [test]",
        "    scripts:",
        "      run@server: bw_serve_role tcp iperf3 -s -B 0.0.0.0 -p '{port}'",
        "      run@client: |",
        "        echo the client waits",
        "        for i in $(seq 1200); do [ -e released ] && break; sleep 0.1; done",
        "        bw_metric waited $((i / 10)) s",
        "",
      ].join("\n"),
    );
    const hosts = [serverHost, clientHost].map((h, i) => ({
      name: ["server-host", "client-host"][i],
      host: h.host,
      port: h.port,
      vm_user: h.username,
      ssh_private_key: h.privateKey,
    }));
    const res = await api.post("/api/v1/sessions/").send({ config: { provider: { class: "existing-vm", name: "pair" }, vms: { hosts } } });
    expect(res.status, res.text).toBe(200);
    sessionId = res.body.id;
  }, 60_000);

  afterAll(async () => {
    if (sessionId) await api.delete(`/api/v1/sessions/${sessionId}`);
    await fx?.close();
    await Promise.all([serverHost?.stop(), clientHost?.stop()]);
  });

  async function run(tool: string, workload: string, params?: Record<string, unknown>) {
    const id = (
      await api
        .post(`/api/v1/sessions/${sessionId}/executions/`)
        .send({ tool, workload, ...(params ? { params } : {}) })
        .expect(200)
    ).body.id;
    const prepared = await api.post(`/api/v1/executions/${id}/prepare`);
    expect(prepared.status, prepared.text).toBe(200);
    const ran = await api.post(`/api/v1/executions/${id}/run`);
    const log = await runLog(api, id);
    const execution = (await api.get(`/api/v1/executions/${id}`).expect(200)).body;
    return { id, ran, log, execution };
  }

  // Every built-in workload with roles.
  const cases = catalog.tools().flatMap((tool) => tool.workloads.filter((w) => w.roles).map((w) => [tool.id, w.id] as const));
  /** The figure that says how much got through, per tool. */
  const THROUGHPUT: Record<string, string> = {
    iperf: "bits_per_second",
    iperf3: "sent_bits_per_second",
    wrk: "requests_per_second",
    sysbench: "transactions_per_second",
  };

  it("covers the two-host tools", () => {
    expect(new Set(cases.map(([tool]) => tool))).toEqual(new Set(Object.keys(THROUGHPUT)));
  });

  it.each(cases)(
    "runs %s %s from the client host to a server the step starts on the server host, and stops",
    async (tool, workload) => {
      const { ran, log, execution } = await run(tool, workload, { duration: tool === "sysbench" ? 2 : 1 });
      expect(ran.status, ran.text).toBe(200);
      expect(execution.state).toBe("completed");
      // The server part first, on the first host; it said where it listens, and was stopped at the end.
      expect(log).toMatch(/^=== run, role server on server-host ===$/m);
      const port = /^BW_READY port=(\d+)$/m.exec(log)?.[1];
      expect(port).toBeDefined();
      // While it ran, its port answered only the session's machines (see the guarded workload below).
      expect(log).toContain(`bw: port ${port} answers only loopback and 127.0.0.1\n`);
      expect(log).toMatch(/^=== run, role client on client-host ===$/m);
      expect(log).toMatch(/^=== run, role server on server-host stopped ===$/m);
      expect(log.indexOf("role client on client-host")).toBeGreaterThan(log.indexOf("BW_READY"));
      expect(processesWith(`-p ${port}`)).toEqual([]);

      // The throughput from client to server, said to come from the client role on its host.
      const metrics = execution.metrics as Metric[];
      const throughput = metrics.find((m) => m.name === THROUGHPUT[tool]);
      expect(throughput, JSON.stringify(metrics)).toBeDefined();
      expect(throughput!.value).toBeGreaterThan(0);
      const declared = catalog.tool(tool)!.metrics!;
      for (const m of metrics) {
        expect(m).toMatchObject({ vm: "client-host", role: "client", unit: declared[m.name]?.unit });
        expect(Number.isFinite(m.value)).toBe(true);
        if (declared[m.name]!.better === "higher") expect(m.value, m.name).toBeGreaterThan(0);
        else expect(m.value, m.name).toBeGreaterThanOrEqual(0);
      }
      // Both hosts' facts were read at prepare.
      expect(execution.exec_env.vms.map((v: { id: string }) => v.id)).toEqual(["server-host", "client-host"]);
      // The run's provenance has each role's script, on its host, each with its own digest.
      const scripts = execution.provenance.scripts as Array<{ machine: string; role: string; digest: string }>;
      expect(scripts.map((s) => [s.machine, s.role])).toEqual([
        ["server-host", "server"],
        ["client-host", "client"],
      ]);
      expect(scripts[0]!.digest).not.toBe(scripts[1]!.digest);
    },
    120_000,
  );

  it("fails the run when the server role fails before it is ready, saying so, and leaves no process behind", async () => {
    const { ran, log, execution } = await run("pair", "failing_server");
    expect(ran.status).toBe(502);
    expect(ran.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(ran.body.detail).toBe("run of pair/failing_server on server-host (role server) exited with code 4 before it was ready");
    expect(ran.body.exit_code).toBe(4);
    expect(ran.body.stdout).toContain("the server cannot start");
    expect(execution.state).toBe("run_failed");
    expect(log).not.toMatch(/role client/);
    expect(processesWith("sleep 3141")).toEqual([]);
  }, 60_000);

  it("stops what a server role left running when the client fails", async () => {
    const { ran, execution } = await run("pair", "dying_server");
    expect(ran.status).toBe(502);
    expect(ran.body.detail).toBe("run of pair/dying_server on client-host (role client) exited with code 6");
    expect(execution.state).toBe("run_failed");
    expect(processesWith("sleep 2718")).toEqual([]);
  }, 60_000);

  it("lets nobody into the OLTP run's MariaDB without the run's secret, which is in no answer, log line or command line", async () => {
    const id = (
      await api
        .post(`/api/v1/sessions/${sessionId}/executions/`)
        .send({ tool: "sysbench", workload: "oltp_point_select", params: { duration: 8, tables: 1, table_size: 100 } })
        .expect(200)
    ).body.id;
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    await api.post(`/api/v1/executions/${id}/run`).set("Prefer", "respond-async").expect(202);
    // The client has filled the database and begun its measured part: both parts' files are written.
    const log = await runLogWith(api, id, "BW_SECTION threads=", 300);
    const port = /^BW_READY port=(\d+)$/m.exec(log)?.[1];
    expect(port, log).toBeDefined();

    // Both parts hold the secret in their env.sh, which only the login user may read.
    const envFiles = ["run-1-server", "run-1-client"].map((part) => join(homedir(), ".benchwright", id, part, "env.sh"));
    const secrets = envFiles.map((file) => /^export BW_STEP_SECRET='?([0-9a-f]{32})'?$/m.exec(readFileSync(file, "utf8"))?.[1]);
    expect(secrets[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(secrets[1]).toBe(secrets[0]);
    for (const file of envFiles) expect(statSync(file).mode & 0o077).toBe(0);
    const secret = secrets[0]!;

    // While the server runs: root, the client's account without its password or with another, no user.
    const mariadb = (...args: string[]) => {
      try {
        return execFileSync("mariadb", ["--no-defaults", "-h", serverHost.host, "-P", port!, "--connect-timeout=5", ...args, "-e", "SELECT 1"], {
          encoding: "utf8",
          stdio: "pipe",
        });
      } catch (e) {
        return String((e as { stderr?: string }).stderr);
      }
    };
    for (const who of [
      ["-u", "root"],
      ["-u", "root", "-proot"],
      ["-u", "bw"],
      ["-u", "bw", "-pwrong"],
      ["-u", "bw", `-p${secret.slice(0, 31)}`],
      ["-u", "mysql"],
    ]) {
      expect(mariadb(...who), who.join(" ")).toMatch(/Access denied/);
    }
    expect(processesWith(secret)).toEqual([]);

    const execution = await settledExecution(api, id, 240);
    // The client, with the secret, got in and measured.
    expect(execution.state, JSON.stringify(execution)).toBe("completed");
    expect((execution.metrics as Metric[]).find((m) => m.name === "transactions_per_second")!.value).toBeGreaterThan(0);
    const answers = [JSON.stringify(execution), await runLog(api, id), (await api.get(`/api/v1/executions/${id}/steps/run/1`).expect(200)).text];
    for (const text of [...answers, ...fx.log.raw]) expect(text).not.toContain(secret);
  }, 180_000);

  it("never shows the secret a script prints, whole or cut across its output, in the log, the answers or the server's log", async () => {
    const { id, ran, log, execution } = await run("pair", "telling");
    expect(ran.status, ran.text).toBe(502);
    expect(ran.body.detail).toBe("run of pair/telling on client-host (role client) exited with code 7");
    const secret = /^export BW_STEP_SECRET='?([0-9a-f]{32})'?$/m.exec(readFileSync(join(homedir(), ".benchwright", id, "run-1-server", "env.sh"), "utf8"))?.[1];
    expect(secret).toMatch(/^[0-9a-f]{32}$/);
    // Where the scripts printed it, the log has as many stars; the stderr tail has the mask.
    const stars = "*".repeat(32);
    for (const line of [`server has ${stars}`, `client has ${stars}`, `stderr has ${stars}`]) expect(log).toContain(line);
    expect(log).toMatch(/^export BW_STEP_SECRET='?\*{32}'?$/m);
    // In base64 too, as the failure's tails mask it: 44 stars where the script printed 44 characters.
    expect(log).toContain(`b64 has ${"*".repeat(44)}\n`);
    expect(log).not.toContain(Buffer.from(secret!).toString("base64").slice(0, 40));
    expect(ran.body.stderr).toContain("stderr has ***");
    const answers = [ran.text, JSON.stringify(execution), log, (await api.get(`/api/v1/executions/${id}/steps/run/1`).expect(200)).text];
    for (const text of [...answers, ...fx.log.raw]) expect(text).not.toContain(secret);
    expect(processesWith("sleep 1621")).toEqual([]);
  }, 60_000);

  // Stopped after the server part said it was ready, while the client part runs; or while the
  // server part starts. The next server takes the step over, both parts still going on their hosts.
  it.each([
    {
      workload: "slow_client",
      during: "the client starts",
      lines: ["the server says hello", "BW_READY port=1", "the client starts", "the client ends"],
      waited: 3,
      server: "sleep 1618",
    },
    {
      workload: "slow_server",
      during: "the server is starting",
      lines: ["the server is starting", "BW_READY port=1", "the client starts"],
      waited: 0,
      server: "sleep 1619",
    },
  ])(
    "hands $workload over to the next server when stopped once it logged $during: each part logged once, the figures recorded once, the server stopped",
    async ({ workload, during, lines, waited, server }) => {
      let next = await openFixture({ persistent: true, configDir: fx.configDir });
      let sid: string | undefined;
      try {
        const hosts = [serverHost, clientHost].map((h, i) => ({
          name: ["server-host", "client-host"][i],
          host: h.host,
          port: h.port,
          vm_user: h.username,
          ssh_private_key: h.privateKey,
        }));
        let napi = request(next.app);
        sid = (
          await napi
            .post("/api/v1/sessions/")
            .send({ config: { provider: { class: "existing-vm", name: "pair" }, vms: { hosts } } })
            .expect(200)
        ).body.id as string;
        const id = (await napi.post(`/api/v1/sessions/${sid}/executions/`).send({ tool: "pair", workload }).expect(200)).body.id;
        await napi.post(`/api/v1/executions/${id}/prepare`).expect(200);
        const interrupted = next.engine.run(id).catch((e: Error) => e);
        expect(await runLogWith(napi, id, during, 100)).toContain(during);
        next = await next.reopen();
        expect(await interrupted).toMatchObject({ code: "unavailable" });
        napi = request(next.app);
        const execution = await settledExecution(napi, id, 80);
        expect(execution.state).toBe("completed");
        expect(execution.steps.filter((s: { step: string }) => s.step === "run")).toHaveLength(1);
        expect(execution.metrics).toEqual([expect.objectContaining({ name: "waited", value: waited, unit: "s", vm: "client-host", role: "client" })]);
        const log = await runLog(napi, id);
        const parts = ["=== run, role server on server-host ===", "=== run, role client on client-host ===", "=== run, role server on server-host stopped ==="];
        for (const line of [...parts, ...lines]) expect(log.split(line).length - 1, `${JSON.stringify(line)} in\n${log}`).toBe(1);
        const at = [...parts.slice(0, 2), ...lines.slice(-1), parts[2]].map((line) => log.indexOf(line));
        expect(at).toEqual([...at].sort((a, b) => a - b));
        expect(processesWith(server)).toEqual([]);
      } finally {
        if (sid) await request(next.app).delete(`/api/v1/sessions/${sid}`);
        await next.close();
      }
    },
    90_000,
  );

  // Another machine, on a network of its own: a namespace joined to this host by a veth pair.
  it("keeps a serving role's port to the session's machines while it runs, and opens it again after", async () => {
    const net = await otherMachine();
    try {
      // The other machine reaches this host's listeners on every address: a port anyone may use answers it.
      const open = createServer((socket) => socket.end()).listen(0, "0.0.0.0");
      await once(open, "listening");
      expect(net.connects((open.address() as AddressInfo).port)).toBe(true);
      open.close();

      const id = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "pair", workload: "guarded" }).expect(200)).body.id;
      await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
      await api.post(`/api/v1/executions/${id}/run`).set("Prefer", "respond-async").expect(202);
      const log = await runLogWith(api, id, "the client waits", 300);
      const port = Number(/^BW_READY port=(\d+)$/m.exec(log)?.[1]);
      expect(port, log).toBeGreaterThan(0);
      // The session's machines are both at 127.0.0.1 (their sshds' address).
      expect(log).toContain(`bw: port ${port} answers only loopback and 127.0.0.1\n`);
      const rules = () => execFileSync("nft", ["list", "ruleset"], { encoding: "utf8" });
      expect(rules()).toMatch(new RegExp(`ip saddr 127\\.0\\.0\\.1 meta l4proto \\{ tcp, udp \\} th dport ${port} accept`));
      expect(net.connects(port)).toBe(false);
      expect(await connectsLocally(port)).toBe(true);
      writeFileSync(join(homedir(), ".benchwright", id, "run-1-client", "released"), "");

      const execution = await settledExecution(api, id, 480);
      expect(execution.state, JSON.stringify(execution)).toBe("completed");
      expect(rules()).not.toMatch(new RegExp(`dport ${port}\\b`));
      expect(existsSync(join(homedir(), ".benchwright", id, "run-1-server", "firewall.undo"))).toBe(false);
    } finally {
      net.remove();
    }
  }, 180_000);

  it("runs every role on the one host of a session that has one", async () => {
    const one = await api
      .post("/api/v1/sessions/")
      .send({
        config: {
          provider: { class: "existing-vm", name: "one" },
          vms: { host: serverHost.host, port: serverHost.port, vm_user: serverHost.username, ssh_private_key: serverHost.privateKey },
        },
      })
      .expect(200);
    try {
      const id = (
        await api
          .post(`/api/v1/sessions/${one.body.id}/executions/`)
          .send({ tool: "iperf", workload: "tcp_10_1", params: { duration: 1 } })
          .expect(200)
      ).body.id;
      await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
      await api.post(`/api/v1/executions/${id}/run`).expect(200);
      const log = (await api.get(`/api/v1/executions/${id}/logs?step=run`).expect(200)).text;
      const host = `${serverHost.host}_${serverHost.port}`;
      expect(log).toContain(`=== run, role server on ${host} ===`);
      expect(log).toContain(`=== run, role client on ${host} ===`);
    } finally {
      await api.delete(`/api/v1/sessions/${one.body.id}`);
    }
  }, 60_000);
});
