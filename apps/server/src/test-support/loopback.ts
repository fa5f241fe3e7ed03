import { startSshd, type SshdHarness } from "@benchwright/testing";
import request from "supertest";
import { openFixture, type Fixture } from "./fixture.js";

export interface LoopbackSession {
  sshd: SshdHarness;
  fx: Fixture;
  api: ReturnType<typeof request>;
  sessionId: string;
  /** Deletes the session (its work dirs go), closes the engine, stops the sshd. */
  close(): Promise<void>;
}

/**
 * A real server and an existing-vm session (Form B) whose host is a private sshd on loopback:
 * every step really runs over SSH. `prepare` runs on the fixture before the session is made
 * (to drop definitions into its config dir).
 */
export async function openLoopbackSession(prepare: (fx: Fixture) => void = () => {}): Promise<LoopbackSession> {
  const sshd = await startSshd();
  const fx = await openFixture();
  prepare(fx);
  const api = request(fx.app);
  const res = await api.post("/api/v1/sessions/").send({
    config: {
      provider: { class: "existing-vm", name: "loopback" },
      vms: { host: sshd.host, port: sshd.port, vm_user: sshd.username, ssh_private_key: sshd.privateKey },
    },
  });
  if (res.status !== 200) throw new Error(`creating the loopback session answered ${res.status}: ${res.text}`);
  const sessionId = res.body.id as string;
  return {
    sshd,
    fx,
    api,
    sessionId,
    async close() {
      await api.delete(`/api/v1/sessions/${sessionId}`);
      await fx.close();
      await sshd.stop();
    },
  };
}

/** Reads a step attempt at its `Location` until it is no longer running, and returns it. */
export async function followStep(api: ReturnType<typeof request>, location: string): Promise<{ state: string; [key: string]: unknown }> {
  for (;;) {
    const attempt = (await api.get(location).expect(200)).body;
    if (attempt.state !== "running") return attempt;
    await new Promise((r) => setTimeout(r, 100));
  }
}
