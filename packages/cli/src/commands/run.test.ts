import { createClient } from "@benchwright/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startCli, startCliInTerminal } from "../test-support/cli-process.js";
import { startTestServer, type TestServer } from "../test-support/server.js";

describe("benchwright run, against a real server", () => {
  let server: TestServer;
  let env: Record<string, string>;
  const sessionsLeft = () => createClient({ baseUrl: server.url }).listSessions();

  beforeAll(async () => {
    server = await startTestServer();
    env = { BENCHWRIGHT_URL: server.url };
  });
  afterAll(async () => {
    await server?.close();
  });

  it("shows each step, prints the metrics as a table and deletes its session", async () => {
    const { code, stdout, stderr } = await runCli(["run", "idle/idle0", "--provider", "local", "--service", "default"], env);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/prepare: attempt 1 succeeded/);
    expect(stderr).toMatch(/run: attempt 1 succeeded/);
    expect(stderr).toMatch(/session [0-9a-f-]{36} deleted/);
    expect(stdout).toMatch(/execution [0-9a-f-]{36} \(idle\/idle0\): completed/);
    expect(stdout).toMatch(/METRIC\s+VALUE\s+UNIT\s+TAGS/);
    expect(stdout).toMatch(/idle_seconds\s+[\d.]+\s+s/);
    expect(await sessionsLeft()).toEqual([]);
  });

  it("prints one JSON document with --json, and nothing else on stdout", async () => {
    const { code, stdout, stderr } = await runCli(["--json", "run", "idle/idle0", "--provider", "local"], env);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout);
    expect(report.session.provider).toMatchObject({ id: "local", type: "default" });
    expect(report.execution).toMatchObject({ state: "completed", test: { tool_id: "idle", workload_id: "idle0" } });
    expect(report.metrics).toEqual([expect.objectContaining({ name: "idle_seconds", unit: "s" })]);
    expect(report.session_deleted).toBe(true);
    expect(report.error).toBeUndefined();
    // No spinner lines either: --json is for scripts.
    expect(stderr).toBe("");
    expect(await sessionsLeft()).toEqual([]);
  });

  it("shares the session and its results with --share; they are not shared without it", async () => {
    const shared = JSON.parse((await runCli(["--json", "run", "idle/idle0", "--provider", "local", "--share"], env)).stdout);
    expect(shared.session).toMatchObject({ shared: true });
    const own = JSON.parse((await runCli(["--json", "run", "idle/idle0", "--provider", "local"], env)).stdout);
    expect(own.session).toMatchObject({ shared: false });
    // The deleted session's record keeps it: its results stay readable by the team (a deleted
    // session is 410 Gone on its own; its record is in the list of deleted ones).
    const deleted = await createClient({ baseUrl: server.url }).listSessions({ state: ["deleted"] });
    expect(deleted.find((s) => s.id === shared.session.id)).toMatchObject({ state: "deleted", shared: true });
  });

  it("follows the run's log with --follow", async () => {
    const { code, stderr } = await runCli(["run", "idle/failing", "--provider", "local", "--follow"], env);
    expect(code).toBe(1);
    // Printed live by --follow, and again as the failure's log tail.
    expect(stderr.split("the failing workload fails on purpose").length - 1).toBeGreaterThanOrEqual(2);
  });

  it("exits 1 when a step fails, saying why with the end of its log, and still deletes the session", async () => {
    const { code, stdout, stderr } = await runCli(["run", "idle/failing", "--provider", "local", "--service", "default"], env);
    expect(code).toBe(1);
    expect(stderr).toMatch(/run: attempt 1 failed/);
    expect(stderr).toMatch(/exit code 3/);
    expect(stderr).toContain("the failing workload fails on purpose");
    expect(stdout).toBe("");
    expect(await sessionsLeft()).toEqual([]);

    const json = await runCli(["run", "idle/failing", "--provider", "local", "--json"], env);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      session_deleted: true,
      error: { step: "run", exit_code: 3, log_tail: expect.stringContaining("fails on purpose") },
    });
  });

  it("on Ctrl-C during the run, deletes the session and exits 130", async () => {
    const cli = startCli(["run", "idle/idle30", "--provider", "local", "--service", "default"], env);
    // Without a terminal ora writes a line when a phase starts.
    await cli.waitForStderr("- run: attempt 1");
    expect(await sessionsLeft()).toHaveLength(1);
    cli.child.kill("SIGINT");
    const { code, stderr } = await cli.exited;
    expect(stderr).toMatch(/session [0-9a-f-]{36} deleted/);
    expect(code).toBe(130);
    expect(await sessionsLeft()).toEqual([]);
  });

  it("on Ctrl-C typed in a terminal while the spinner runs, deletes the session and exits 130", async () => {
    const cli = startCliInTerminal(["run", "idle/idle30", "--provider", "local", "--service", "default"], env);
    // On a terminal the spinner redraws its line; the run's phase is on it once started.
    await cli.waitForStderr("run: attempt 1");
    expect(await sessionsLeft()).toHaveLength(1);
    cli.child.stdin!.write("\x03");
    const { code, stderr } = await cli.exited;
    expect(stderr).toMatch(/session [0-9a-f-]{36} deleted/);
    expect(code).toBe(130);
    expect(await sessionsLeft()).toEqual([]);
  });

  it("passes --param to the execution, typed as the workload declares it", async () => {
    const { code, stdout, stderr } = await runCli(["run", "idle/idle5", "--provider", "local", "--param", "seconds=0", "--json"], env);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stdout).execution.params).toEqual({ seconds: 0 });

    const refused = await runCli(["run", "idle/idle5", "--provider", "local", "--param", "seconds=1000"], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/validation_failed/);
    expect((await runCli(["run", "idle/idle5", "--provider", "local", "--param", "seconds=soon"], env)).code).toBe(2);
    expect(await sessionsLeft()).toEqual([]);
  });

  it("repeats the run with --repeat, and prints each metric's n, deviation and interval", async () => {
    const { code, stdout, stderr } = await runCli(["run", "idle/idle5", "--provider", "local", "--param", "seconds=0.05", "--repeat", "3"], env);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/METRIC\s+VALUE\s+UNIT\s+TAGS\s+REPEATED/);
    expect(stdout).toMatch(/idle_seconds\s+[\d.]+\s+s\s+n=3 sd=[\d.e-]+ 95% \[[\d.e-]+, [\d.e-]+\]/);

    const json = await runCli(
      ["--json", "run", "idle/idle5", "--provider", "local", "--param", "seconds=0.05", "--until-cv", "0.9", "--min", "2", "--max", "4"],
      env,
    );
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout);
    expect(report.execution.repetitions).toEqual({ until_cv: 0.9, min: 2, max: 4 });
    expect(report.metrics[0].stats.n).toBe(2);

    // Mixed plans are a usage error before any session; bounds are the server's 400.
    expect((await runCli(["run", "idle/idle0", "--provider", "local", "--repeat", "3", "--max", "4"], env)).code).toBe(2);
    expect((await runCli(["run", "idle/idle0", "--provider", "local", "--repeat", "three"], env)).code).toBe(2);
    const tooMany = await runCli(["run", "idle/idle0", "--provider", "local", "--repeat", "1000"], env);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/repetitions/);
    expect(await sessionsLeft()).toEqual([]);
  });

  it("shows which repetition of a repeated run is under way", async () => {
    const { code, stderr } = await runCli(["run", "idle/idle5", "--provider", "local", "--param", "seconds=1", "--repeat", "3"], env);
    expect(code, stderr).toBe(0);
    // Without a terminal, one line per phase: each repetition is one.
    expect(stderr).toMatch(/run: attempt 1, repetition 1\/3/);
    expect(stderr).toMatch(/run: attempt 1, repetition 2\/3/);
    expect(stderr).toMatch(/run: attempt 1, repetition 3\/3/);
    expect(stderr).toMatch(/run: attempt 1 succeeded/);
  });

  it("refuses a wrong benchmark name as a usage error, before any session exists", async () => {
    const bad = await runCli(["run", "idle", "--provider", "local"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/<tool>\/<workload>/);

    const unknownWorkload = await runCli(["run", "idle/idle7", "--provider", "local"], env);
    expect(unknownWorkload.code).toBe(2);
    expect(unknownWorkload.stderr).toMatch(/choices: .*idle0/);

    const unknownProvider = await runCli(["run", "idle/idle0", "--provider", "nowhere"], env);
    expect(unknownProvider.code).toBe(2);
    expect(unknownProvider.stderr).toMatch(/unknown_provider/);
    expect(await sessionsLeft()).toEqual([]);
  });
});
