import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { LocalShell } from "../transport/local-shell.js";
import { shellPath, shellQuote } from "./shell-quote.js";
import { attachStep, stopAttemptSteps, stopExecutionSteps } from "./step-control.js";
import { StepRunner } from "./step-runner.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("step control", () => {
  const local = new LocalShell();
  const runner = new StepRunner();
  const root = `~/.benchwright/test-${randomUUID()}`;
  afterAll(async () => {
    await runner.remove(local, root);
  });

  /** Waits (up to 10 s) for a process group to vanish. */
  async function groupGone(pgid: number): Promise<boolean> {
    for (let i = 0; i < 100; i++) {
      if ((await local.exec(`kill -0 -- -${pgid} 2>/dev/null`)).code !== 0) return true;
      await sleep(100);
    }
    return false;
  }

  it("finds a launched step's handle, and none where nothing was launched", async () => {
    const handle = await runner.start(local, { dir: `${root}/e1/run-1`, script: "sleep 60", timeoutMs: 60_000 });
    expect(await attachStep(local, `${root}/e1/run-1`)).toEqual(handle);
    expect(await attachStep(local, `${root}/e1/run-2`)).toBeUndefined();
    await stopExecutionSteps(local, `${root}/e1`);
    expect(await groupGone(handle.pgid)).toBe(true);
  }, 20_000);

  it("stops a step whose launch is under way: its lock taken, its pid not written yet", async () => {
    const dir = `${root}/e2/run-1`;
    // A launcher slow to record the pid: the step's group exists a moment before step.pid does.
    await local.exec(
      `mkdir -p ${shellPath(dir)} && cd ${shellPath(dir)} && : > launch.lock && (setsid bash -c 'sleep 0.5; echo $$ > step.pid; sleep 60' < /dev/null > /dev/null 2>&1 &)`,
    );
    await stopExecutionSteps(local, `${root}/e2`);
    let pgid = 0;
    for (let i = 0; i < 50 && !(pgid > 1); i++) {
      pgid = Number((await local.exec(`cat ${shellPath(dir)}/step.pid 2>/dev/null`)).stdout);
      if (!(pgid > 1)) await sleep(100);
    }
    expect(pgid).toBeGreaterThan(1);
    const gone = await groupGone(pgid);
    if (!gone) await local.exec(`kill -KILL -- -${pgid}`);
    expect(gone).toBe(true);
  }, 20_000);

  // A serving part's guard (lib.sh's bw_guard_port) writes how to undo its firewall rule; a
  // part killed outright never runs its exit commands, so whoever kills it runs that.
  const guarded = 'trap "" TERM; echo "touch $PWD/undone" > firewall.undo; sleep 60';
  const undone = async (dir: string) => (await local.exec(`cd ${shellPath(dir)} && ls`)).stdout.split("\n").filter(Boolean).sort();

  it("undoes a killed part's firewall rule: a stop (TERM, then KILL)", async () => {
    const dir = `${root}/e3/run-1-server`;
    const handle = await runner.start(local, { dir, script: guarded, timeoutMs: 60_000 });
    for (let i = 0; i < 50 && !(await undone(dir)).includes("firewall.undo"); i++) await sleep(100);
    await new StepRunner({ killGraceSeconds: 1 }).kill(local, handle);
    expect(await groupGone(handle.pgid)).toBe(true);
    const files = await undone(dir);
    expect(files).toContain("undone");
    expect(files).not.toContain("firewall.undo");
  }, 20_000);

  it("undoes a killed part's firewall rule: a session's DELETE", async () => {
    const dir = `${root}/e4/run-1-server`;
    const handle = await runner.start(local, { dir, script: guarded, timeoutMs: 60_000 });
    for (let i = 0; i < 50 && !(await undone(dir)).includes("firewall.undo"); i++) await sleep(100);
    await stopExecutionSteps(local, `${root}/e4`);
    expect(await groupGone(handle.pgid)).toBe(true);
    const files = await undone(dir);
    expect(files).toContain("undone");
    expect(files).not.toContain("firewall.undo");
  }, 20_000);

  // Issue 27, point 6: a follower aborted while its start command is still on its way; its
  // owner's clean-up reaches the host first, and the start lands after it.
  it("launches nothing where a start lands after its execution was retired, and leaves no dir", async () => {
    const dir = `${root}/e8/prepare-1`;
    const exists = async (path: string) => (await local.exec(`[ -e ${shellPath(path)} ]`)).code === 0;
    await stopExecutionSteps(local, `${root}/e8`, { retire: true });
    await runner.remove(local, `${root}/e8`);
    await expect(runner.start(local, { dir, script: "sleep 60", timeoutMs: 60_000 })).rejects.toMatchObject({
      code: "step_failed",
      detail: expect.stringContaining("session was deleted"),
    });
    expect(await exists(`${root}/e8`)).toBe(false);
    // Another execution on the same host launches as before.
    const handle = await runner.start(local, { dir: `${root}/e9/prepare-1`, script: "sleep 60", timeoutMs: 60_000 });
    await stopExecutionSteps(local, `${root}/e9`, { retire: true });
    expect(await groupGone(handle.pgid)).toBe(true);
  }, 20_000);

  it("keeps a retirement mark for a day, then prunes it", async () => {
    const gone = `${root}/.gone`;
    await local.exec(`mkdir -p ${shellPath(gone)} && touch -d '2 days ago' ${shellPath(`${gone}/old`)}`);
    await stopExecutionSteps(local, `${root}/e10`, { retire: true });
    const marks = (await local.exec(`ls -A ${shellPath(gone)}`)).stdout.split("\n").filter(Boolean);
    expect(marks).toContain("e10");
    expect(marks).not.toContain("old");
  }, 20_000);

  it("stops one attempt (its roles' and repetitions' dirs too): TERM first, KILL after the grace, rules undone, the dirs kept", async () => {
    const e = `${root}/e5`;
    const start = (name: string, script: string) => runner.start(local, { dir: `${e}/${name}`, script, timeoutMs: 60_000 });
    // Leave a mark when TERM comes, then end (node's handler: a bash trap may not run when TERM lands as it forks).
    const polite = `exec ${shellPath(process.execPath)} -e ${shellQuote(
      'const fs = require("node:fs"); process.on("SIGTERM", () => { fs.writeFileSync("termed", ""); process.exit(143); }); fs.writeFileSync("ready", ""); setInterval(() => {}, 1000);',
    )}`;
    const [plain, role] = [await start("run-1", polite), await start("run-1-client", polite)];
    // Ignores TERM: only the KILL ends it.
    const stubborn = await start("run-2-r2", guarded);
    // Not these attempts': another attempt (run-10 is no run-1-*) and the other step.
    const others = [await start("run-10", "sleep 60"), await start("prepare-1", "sleep 60")];
    for (const dir of ["run-1", "run-1-client"]) for (let i = 0; i < 50 && !(await undone(`${e}/${dir}`)).includes("ready"); i++) await sleep(100);
    for (let i = 0; i < 50 && !(await undone(`${e}/run-2-r2`)).includes("firewall.undo"); i++) await sleep(100);

    // Parts that end on TERM are not waited for past their end: the grace is a bound.
    let began = Date.now();
    await stopAttemptSteps(local, e, "run-1", 20);
    expect(Date.now() - began).toBeLessThan(15_000);
    for (const part of [plain, role]) expect(await groupGone(part.pgid)).toBe(true);
    for (const dir of ["run-1", "run-1-client"]) expect(await undone(`${e}/${dir}`)).toEqual(expect.arrayContaining(["termed", "step.log", "step.pid"]));

    // One that ignores TERM gets the KILL once the grace has passed, and its firewall rule is undone.
    began = Date.now();
    await stopAttemptSteps(local, e, "run-2", 1);
    expect(Date.now() - began).toBeGreaterThanOrEqual(900);
    expect(await groupGone(stubborn.pgid)).toBe(true);
    expect(await undone(`${e}/run-2-r2`)).toEqual(expect.arrayContaining(["undone", "step.log"]));

    for (const other of others) expect((await local.exec(`kill -0 -- -${other.pgid}`)).code).toBe(0);
    await stopExecutionSteps(local, e);
    for (const other of others) expect(await groupGone(other.pgid)).toBe(true);
    await expect(stopAttemptSteps(local, e, "run-1/../x", 1)).rejects.toMatchObject({ code: "internal" });
  }, 60_000);
});
