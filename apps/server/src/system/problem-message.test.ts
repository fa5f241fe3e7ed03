import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDefinition, openFixture, type Fixture } from "../test-support/fixture.js";

// The Benchmarking Suite's clients read `message` from every error body, and a failed
// command's `stdout` and `stderr`: Benchwright's problems carry them beside their own fields.
describe("problems as the Benchmarking Suite's clients read them", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let sid: string;

  beforeAll(async () => {
    fx = await openFixture();
    dropDefinition(fx.configDir, {
      id: "twostreams",
      workload: "fail",
      run: ['echo "checking the disk"', 'echo "disk full" >&2', 'echo "giving up"', 'echo "no space left" >&2', "exit 3"].join("\n"),
    });
    api = request(fx.app);
    sid = (await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body.id;
  });
  afterAll(() => fx.close());

  it("gives every problem a message, the text of its detail", async () => {
    const exec = (await api.post(`/api/v1/sessions/${sid}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body.id;
    const answers = [
      await api.get("/api/v1/sessions/00000000-0000-4000-8000-000000000000").expect(404),
      await api.post(`/api/v1/sessions/${sid}/executions/`).send({ tool: "idle" }).expect(400),
      await api.post(`/api/v1/sessions/${sid}/executions/`).set("Content-Type", "application/json").send("{").expect(400),
      await api.post(`/api/v1/sessions/${sid}/executions/`).send({ tool: "nosuch", workload: "x" }).expect(400),
      await api.post(`/api/v1/sessions/${sid}/executions/`).set("Content-Type", "text/plain").send("tool=idle").expect(415),
      await api.get("/api/v1/sessions/").set("X-Fields", "id{").expect(400),
      await api.post(`/api/v1/executions/${exec}/run`).expect(409),
    ];
    for (const res of answers) {
      expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(res.body.detail, res.text).toEqual(expect.any(String));
      expect(res.body.message, res.text).toBe(res.body.detail);
    }
  });

  it("gives a failed step's stdout and stderr, each on its own", async () => {
    const exec = (await api.post(`/api/v1/sessions/${sid}/executions/`).send({ tool: "twostreams", workload: "fail" }).expect(200)).body.id;
    await api.post(`/api/v1/executions/${exec}/prepare`).expect(200);
    const res = await api.post(`/api/v1/executions/${exec}/run`).expect(502);
    expect(res.body).toMatchObject({
      code: "step_failed",
      exit_code: 3,
      message: res.body.detail,
      stdout: "checking the disk\ngiving up\n",
      stderr: "disk full\nno space left\n",
    });
    // The log and output_tail keep both streams together.
    for (const line of ["checking the disk", "disk full", "giving up", "no space left"]) expect(res.body.output_tail).toContain(line);
    // Run again, the new attempt reports its own streams, from its own step dir.
    const again = await api.post(`/api/v1/executions/${exec}/run`).expect(502);
    expect(again.body).toMatchObject({ attempt: 2, stdout: "checking the disk\ngiving up\n", stderr: "disk full\nno space left\n" });
  });
});
