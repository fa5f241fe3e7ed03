import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startSshd, type SshdHarness } from "@benchwright/testing";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openFixture, type Fixture } from "../test-support/fixture.js";

/**
 * A data directory on a small filesystem of its own (tmpfs, mounted as root, as CI runs), on
 * the embedded database: room for PGlite's files (about 40 MB) and little more.
 */
describe("a full data directory", () => {
  let mountPoint: string | undefined;
  let mounted = false;
  let sshd: SshdHarness;
  let fx: Fixture;
  let api: ReturnType<typeof request>;

  /** Takes every free block of the filesystem. */
  const fillDisk = () => {
    try {
      execFileSync("dd", ["if=/dev/zero", `of=${join(mountPoint!, "fill")}`, "bs=64k"], { stdio: "ignore" });
    } catch {
      // dd ends with "No space left on device": that is the point.
    }
  };
  const freeDisk = () => unlinkSync(join(mountPoint!, "fill"));

  beforeAll(async () => {
    mountPoint = mkdtempSync(join(tmpdir(), "bw-full-"));
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64m", "tmpfs", mountPoint]);
    mounted = true;
    fx = await openFixture({ persistent: true, dataDir: join(mountPoint, "data") });
    api = request(fx.app);
    sshd = await startSshd();
  }, 60_000);
  afterAll(async () => {
    await fx?.engine.close();
    await sshd?.stop();
    // Lazily: a file still open (a step's) must not keep the mount, nor fail the run.
    if (mounted) execFileSync("umount", ["--lazy", mountPoint!]);
    if (mountPoint) rmSync(mountPoint, { recursive: true, force: true });
  });

  it("answers 507 insufficient_storage, a problem, when the database cannot grow; and works again once space is freed", async () => {
    const session = (await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body;
    const exec = (await api.post(`/api/v1/sessions/${session.id}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body;
    fillDisk();
    try {
      // The first step of an execution needs a new page of its table.
      const res = await api.post(`/api/v1/executions/${exec.id}/prepare`);
      expect([res.status, res.body.code], res.text).toEqual([507, "insufficient_storage"]);
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.body).toMatchObject({
        title: "Insufficient storage",
        detail: expect.stringMatching(/storage is full \(No space left on device\)/),
      });
      // Sessions fill their pages until one more is needed: that one is a 507 too, never a 500.
      let status = 200;
      for (let i = 0; i < 400 && status === 200; i++) {
        const created = await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" });
        status = created.status;
        if (status !== 200) expect([created.status, created.body.code], created.text).toEqual([507, "insufficient_storage"]);
      }
      expect(status).toBe(507);
    } finally {
      freeDisk();
    }
    await api.post(`/api/v1/executions/${exec.id}/prepare`).expect(200);
    await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200);
  }, 120_000);

  it("ends a step whose log cannot be written at once, its record and its answer saying the storage is full", async () => {
    // The host (a private sshd) has room: only the server's data directory is full.
    const session = (
      await api
        .post("/api/v1/sessions/")
        .send({
          config: {
            provider: { class: "existing-vm", name: "roomy" },
            vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
          },
        })
        .expect(200)
    ).body;
    const exec = (await api.post(`/api/v1/sessions/${session.id}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body;
    await api.post(`/api/v1/executions/${exec.id}/prepare`).expect(200);
    await api.post(`/api/v1/executions/${exec.id}/run`).expect(200);
    fillDisk();
    try {
      const started = Date.now();
      const res = await api.post(`/api/v1/executions/${exec.id}/run`);
      expect(Date.now() - started).toBeLessThan(30_000);
      expect([res.status, res.body.code], res.text).toEqual([507, "insufficient_storage"]);
      expect(res.body).toMatchObject({
        step: "run",
        attempt: 2,
        state: "run_failed",
        detail: expect.stringMatching(/log .*storage is full \(No space left on device\)/),
      });
      const step = (await api.get(`/api/v1/executions/${exec.id}`).expect(200)).body.steps.find(
        (s: { step: string; attempt: number }) => s.step === "run" && s.attempt === 2,
      );
      expect(step).toMatchObject({ state: "failed", error: res.body.detail });
    } finally {
      freeDisk();
    }
    await api.post(`/api/v1/executions/${exec.id}/run`).expect(200);
  }, 120_000);
});
