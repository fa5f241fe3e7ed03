import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { parseDefinition } from "./definition.js";
import { loadCatalog } from "./catalog.js";
import { parsers } from "./parsers/index.js";

const PARSERS = Object.keys(parsers);
const debian = { platform: "debian_12", allowInstall: false };

function definition(workloads: string, tool = ""): string {
  return `id: pair\ntool_name: Pair\nparser: keyvalue\n${tool}\nworkloads:\n${workloads}`;
}
const problemsOf = (text: string): string => {
  try {
    parseDefinition(text, "pair.yaml", PARSERS);
    return "";
  } catch (e) {
    return (e as Error).message;
  }
};

describe("machine roles in a definition", () => {
  const TWO = `  - id: w
    roles:
      server: { count: 1, serves: true, description: Listens }
      client: { count: 2 }
    scripts:
      prepare: echo shared prepare
      run@server: echo serving
      run@client: echo measuring
`;

  it("are read in order with their counts, and each role gets its own scripts over the shared ones", () => {
    const def = parseDefinition(definition(TWO), "pair.yaml", PARSERS);
    expect(def.workloads[0]!.roles).toEqual({
      server: { count: 1, serves: true, description: "Listens" },
      client: { count: 2, serves: false },
    });
    expect(Object.keys(def.workloads[0]!.roles!)).toEqual(["server", "client"]);
  });

  it("give each role's script, the shared prepare included, and say which role it is", () => {
    const catalog = loadCatalog();
    const server = catalog.runScript("iperf3", "tcp_10_1", { ...debian, role: "server" });
    const client = catalog.runScript("iperf3", "tcp_10_1", { ...debian, role: "client" });
    expect(server).toContain("bw_serve_role tcp iperf3 -s");
    expect(server).not.toContain("iperf3 -c");
    expect(client).toContain('iperf3 -c "$BW_ROLE_SERVER_HOST" -p "$BW_ROLE_SERVER_PORT"');
    expect(client).toMatch(/^# role: client$/m);
    expect(() => catalog.runScript("iperf3", "tcp_10_1", { ...debian, role: "observer" })).toThrow(/has no role 'observer'/);
  });

  it("are inherited from the tool unless a workload declares its own", () => {
    const def = parseDefinition(
      definition(
        `  - id: a\n    scripts: { run@one: echo a1, run@two: echo a2 }\n  - id: b\n    roles: { solo: {} }\n    scripts: { run: echo b }\n`,
        "roles: { one: { serves: true }, two: {} }",
      ),
      "pair.yaml",
      PARSERS,
    );
    expect(def.workloads[0]!.roles).toEqual({ one: { count: 1, serves: true }, two: { count: 1, serves: false } });
    expect(def.workloads[1]!.roles).toEqual({ solo: { count: 1, serves: false } });
  });

  it("are checked: names, counts, a role that does not serve, and a run script for every role", () => {
    const messages = problemsOf(
      definition(`  - id: w
    roles:
      Bad-Name: { count: 0 }
      server: { serves: "yes", size: 2 }
    scripts:
      run@server: echo
      run@nobody: echo
  - id: v
    roles: { a: { serves: true } }
    scripts: { run@a: echo }
  - id: u
    scripts: { run@x: echo }
`),
    );
    expect(messages).toContain("workloads[0].roles.Bad-Name: is not a valid role name");
    expect(messages).toContain("workloads[0].roles.Bad-Name.count: must be an integer from 1 to 16");
    expect(messages).toContain("workloads[0].roles.server.serves: must be true or false");
    expect(messages).toContain("workloads[0].roles.server.size: is not count, serves or description");
    expect(messages).toContain("workloads[0].scripts.run@nobody: names role 'nobody', which is not declared");
    expect(messages).toContain("workloads[0].scripts.run: is missing for role Bad-Name");
    expect(messages).toContain("workloads[1].roles: must have a role that does not serve");
    expect(messages).toContain("workloads[2].scripts.run@x: names a role, but the workload declares no roles");
  });
});

describe("bw_serve_role and bw_ready", () => {
  it("start a server on every address, say its port when it listens, and wait for it", async () => {
    const catalog = loadCatalog();
    // The serving script itself, with python's http.server as the server: it must announce a
    // port that really answers on 0.0.0.0, then stay until it is stopped.
    const script = catalog
      .runScript("iperf3", "tcp_10_1", { ...debian, role: "server" })
      .replace(/bw_serve_role tcp iperf3 .*$/m, "bw_serve_role tcp python3 -m http.server --bind 0.0.0.0 '{port}'");
    // In a part's dir of its own: the port's guard (bw_guard_port) leaves its undo there.
    const dir = mkdtempSync(join(tmpdir(), "bw-serve-role-"));
    // Waits for the announcement, not for a fixed time: under load python's start takes seconds.
    const child = spawn("bash", ["-c", script], { cwd: dir, detached: true, stdio: ["ignore", "pipe", "inherit"] });
    try {
      const lines = createInterface({ input: child.stdout! });
      let exited = false;
      child.once("exit", () => {
        exited = true;
      });
      let ready = "";
      for await (const line of lines) {
        if (line.startsWith("BW_READY")) {
          ready = line;
          break;
        }
      }
      expect(ready).toMatch(/^BW_READY port=\d{5}$/);
      // The announced port answers, and the script is still serving: bw_ready waits for it.
      const port = Number(ready.slice("BW_READY port=".length));
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, "127.0.0.1", () => {
          socket.end();
          resolve();
        });
        socket.once("error", reject);
      });
      expect(exited).toBe(false);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
      // A KILL runs no exit command: the runner undoes the guard's rule then, as here.
      spawnSync("bash", ["-c", "[ -f firewall.undo ] && bash firewall.undo"], { cwd: dir });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
