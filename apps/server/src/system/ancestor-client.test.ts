import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startSshd, type SshdHarness } from "@benchwright/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDefinition, openFixture, type Fixture } from "../test-support/fixture.js";
import { listen, type Listening } from "../test-support/raw-http.js";

/**
 * A client of the Benchmarking Suite's REST server, written from its documentation and models
 * only (benchsuite-rest apiv1: the Session, Execution and NewSession models, the
 * BashCommandExecutionFailedException handler's `message`, `stdout`, `stderr`), and checking
 * statuses the way the CloudPerfect profiler does with HttpURLConnection: exactly 200 on every
 * POST and GET, exactly 204 on DELETE, anything else an error read from `message`. It knows
 * nothing of Benchwright: no problem codes, no `detail`, no async steps.
 */
class AncestorClient {
  constructor(private readonly http: Listening) {}

  /** A POST with doOutput set and nothing written: Content-Type sent, zero bytes of body. */
  post(path: string, body?: unknown): Promise<Record<string, unknown>> {
    return this.call("POST", path, 200, body === undefined ? "" : JSON.stringify(body));
  }

  get(path: string, fields?: string): Promise<Record<string, unknown>> {
    return this.call("GET", path, 200, undefined, fields ? { "X-Fields": fields } : {});
  }

  async delete(path: string): Promise<void> {
    await this.call("DELETE", path, 204, "");
  }

  private async call(method: string, path: string, expected: number, body?: string, extra: Record<string, string> = {}) {
    const headers = { "Content-Type": "application/json", Accept: "application/json", ...extra };
    const res = await this.http.send(method, `/api/v1${path}`, { headers, body });
    if (res.status !== expected) {
      const error = (res.json ?? {}) as { message?: string; stdout?: string; stderr?: string };
      throw new AncestorError(res.status, String(error.message), error.stdout, error.stderr);
    }
    return (res.json ?? {}) as Record<string, unknown>;
  }
}

class AncestorError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly stdout?: string,
    readonly stderr?: string,
  ) {
    super(message);
  }
}

describe("a client written for the Benchmarking Suite's REST server", () => {
  let sshd: SshdHarness;
  let fx: Fixture;
  let http: Listening;
  let client: AncestorClient;

  beforeAll(async () => {
    sshd = await startSshd();
    fx = await openFixture();
    // The ancestor's existing_vm.conf.example, as its users keep it: an INI file.
    writeFileSync(
      join(fx.configDir, "providers", "my_vms.conf"),
      [
        "[provider]",
        "class = benchsuite.stdlib.provider.existing_vm.ExistingVMProvider",
        "",
        "[vm_1]",
        `ip_address = ${sshd.host}`,
        `port = ${sshd.port}`,
        `user = ${sshd.username}`,
        `key_path = ${sshd.privateKeyPath}`,
        "platform = debian",
        "",
      ].join("\n"),
    );
    dropDefinition(fx.configDir, { id: "broken", workload: "both_streams", run: "echo 'to stdout'\necho 'to stderr' >&2\nexit 4" });
    http = await listen(fx.app);
    client = new AncestorClient(http);
  }, 60_000);

  afterAll(async () => {
    await http?.close();
    await fx?.close();
    await sshd?.stop();
  });

  it("runs its whole flow unchanged: Form A from an INI file, sysbench memory run twice, masks, delete", async () => {
    // The profiler names no service when its provider file has one; the ancestor's quick start
    // posts to /api/v1/sessions, without the slash.
    const session = await client.post("/sessions", { provider: "my_vms", service: null });
    expect(session).toMatchObject({ id: expect.any(String), provider: expect.anything(), created: expect.any(String) });
    const id = session.id as string;

    // The client sends a tool and a workload, never parameters: a workload whose defaults are
    // short (sysbench memory, 2 s), where cpu_10000's are four thread counts of 10,000 events
    // (over 80 s a run on a loaded 2-core machine, three runs here) for the same flow.
    const execution = await client.post(`/sessions/${id}/executions/`, { tool: "sysbench", workload: "memory" });
    const execId = execution.id as string;
    await client.post(`/executions/${execId}/prepare`);
    const first = await client.post(`/executions/${execId}/run`);
    const second = await client.post(`/executions/${execId}/run`);
    expect(first.started).not.toBe(second.started);

    const record = await client.get(`/executions/${execId}`);
    expect(record.test).toMatchObject({ tool_name: expect.any(String) });
    // Prepare again after a run, as the ancestor allowed: a new attempt, then a run again.
    await client.post(`/executions/${execId}/prepare`);
    await client.post(`/executions/${execId}/run`);

    const masked = await client.get(`/sessions/${id}`, "id,created");
    expect(Object.keys(masked).sort()).toEqual(["created", "id"]);
    expect((await client.get(`/executions/${execId}`, "id")).id).toBe(execId);

    await client.delete(`/sessions/${id}`);
    // Gone, as the ancestor answered: an error with a message.
    await expect(client.get(`/sessions/${id}`)).rejects.toMatchObject({ status: 410, message: expect.stringContaining(id) });
    await expect(client.delete(`/sessions/${id}`)).rejects.toMatchObject({ status: 404, message: expect.stringContaining(id) });
  }, 900_000);

  it("creates a session from an inline configuration with the ancestor's keys, and reads a failed run's message, stdout and stderr", async () => {
    const session = await client.post("/sessions/", {
      config: {
        provider: { class: "benchsuite.stdlib.provider.existing_vm.ExistingVMProvider", name: "inline_vms" },
        vm_1: { ip_address: sshd.host, port: sshd.port, user: sshd.username, ssh_private_key: sshd.privateKey, platform: "debian" },
      },
    });
    const id = session.id as string;
    // `testing` is the ancestor's later name of the idle tool.
    const idle = await client.post(`/sessions/${id}/executions/`, { tool: "testing", workload: "idle0" });
    await client.post(`/executions/${idle.id}/prepare`);
    await client.post(`/executions/${idle.id}/run`);

    const broken = await client.post(`/sessions/${id}/executions/`, { tool: "broken", workload: "both_streams" });
    await client.post(`/executions/${broken.id}/prepare`);
    const failure = await client.post(`/executions/${broken.id}/run`).then(
      () => undefined,
      (e: unknown) => e as AncestorError,
    );
    expect(failure).toBeInstanceOf(AncestorError);
    expect(failure!.message).not.toBe("undefined");
    expect(failure!.message.length).toBeGreaterThan(0);
    expect(failure!.stdout).toContain("to stdout");
    expect(failure!.stdout).not.toContain("to stderr");
    expect(failure!.stderr).toContain("to stderr");
    expect(failure!.stderr).not.toContain("to stdout");

    await client.delete(`/sessions/${id}`);
  }, 300_000);
});
