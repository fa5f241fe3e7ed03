import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DbLogStore } from "@benchwright/engine";
import { createTestSchema } from "@benchwright/testing";
import { createClient } from "@benchwright/sdk";
import request from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { dropDefinition, openFixture, type Fixture } from "../test-support/fixture.js";
import { engineStore } from "@benchwright/engine/test-access";

/** The body as bytes, whatever its type: a text answer is compared byte for byte. */
const binary = ((res: NodeJS.ReadableStream, done: (e: Error | null, body: Buffer) => void) => {
  const parts: Buffer[] = [];
  res.on("data", (c: Buffer) => parts.push(c));
  res.on("end", () => done(null, Buffer.concat(parts)));
}) as unknown as Parameters<request.Test["parse"]>[0];

async function listen(fx: Fixture): Promise<{ url: string; server: Server }> {
  const server = fx.app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Reads a followed log to its end, calling `onText` with everything seen so far after each chunk. */
async function readAll(chunks: AsyncIterable<string>, onText: (seen: string) => void = () => {}): Promise<string> {
  let seen = "";
  for await (const text of chunks) {
    seen += text;
    onText(seen);
  }
  return seen;
}

async function* fetchText(url: string): AsyncGenerator<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  // Followed: no length can be known, the body is chunked.
  expect(res.headers.get("content-length")).toBeNull();
  expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
  const decoder = new TextDecoder();
  for await (const chunk of res.body!) yield decoder.decode(chunk as Uint8Array, { stream: true });
}

describe("step logs, on the embedded default", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let gateDir: string;
  let sessionId: string;

  beforeAll(async () => {
    fx = await openFixture();
    gateDir = mkdtempSync(join(tmpdir(), "bw-gate-"));
    dropDefinition(fx.configDir, {
      id: "counter",
      workload: "lines",
      run: "seq -f 'line %g of the counter' 1 5000\necho 'BW_METRIC lines 5000 count'",
    });
    // A line every 100 ms for about 2 s; halfway it waits until the test says it has seen the first half live.
    dropDefinition(fx.configDir, {
      id: "ticker",
      workload: "gated",
      run: [
        'for i in $(seq 1 10); do echo "tick $i"; sleep 0.1; done',
        `n=0; while [ ! -e ${gateDir}/open ] && [ $n -lt 1200 ]; do sleep 0.05; n=$((n+1)); done`,
        'for i in $(seq 11 20); do echo "tick $i"; sleep 0.1; done',
        "echo 'BW_METRIC ticks 20 count'",
      ].join("\n"),
    });
    api = request(fx.app);
    sessionId = (await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body.id;
  });
  afterAll(async () => {
    await fx.close();
    rmSync(gateDir, { recursive: true, force: true });
  });

  const prepared = async (tool: string, workload: string) => {
    const id = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool, workload }).expect(200)).body.id as string;
    await api.post(`/api/v1/executions/${id}/prepare`).expect(200);
    return id;
  };

  describe("of an ended run", () => {
    let id: string;
    let whole: Buffer;
    const log = () => api.get(`/api/v1/executions/${id}/logs?step=run`).buffer(true).parse(binary);

    beforeAll(async () => {
      id = await prepared("counter", "lines");
      await api.post(`/api/v1/executions/${id}/run`).expect(200);
      const res = await log().expect(200).expect("accept-ranges", "bytes");
      whole = res.body as Buffer;
    });

    it("serves the whole log with its length", async () => {
      expect(whole.toString()).toMatch(/^line 1 of the counter\nline 2 of the counter\n[\s\S]*line 5000 of the counter\nBW_METRIC lines 5000 count\n$/);
      const res = await log().expect(200);
      expect(Number(res.headers["content-length"])).toBe(whole.length);
    });

    it("answers a byte range with 206, Content-Range and exactly those bytes", async () => {
      const size = whole.length;
      const cases: Array<[string, number, number]> = [
        ["bytes=100-199", 100, 199],
        ["bytes=0-0", 0, 0],
        [`bytes=${size - 1}-${size - 1}`, size - 1, size - 1],
        ["bytes=1000-", 1000, size - 1],
        ["bytes=-50", size - 50, size - 1],
        // Past the end: cut to the end (RFC 9110).
        [`bytes=12345-${size + 1000}`, 12345, size - 1],
        [`bytes=-${size + 10}`, 0, size - 1],
      ];
      for (const [range, first, last] of cases) {
        const res = await log().set("Range", range).expect(206);
        expect(res.headers["content-range"], range).toBe(`bytes ${first}-${last}/${size}`);
        expect(res.headers["accept-ranges"]).toBe("bytes");
        expect(Number(res.headers["content-length"])).toBe(last - first + 1);
        expect((res.body as Buffer).equals(whole.subarray(first, last + 1)), range).toBe(true);
      }
    });

    it("answers a range past the end with 416, the log's size, and a problem", async () => {
      for (const range of [`bytes=${whole.length}-`, `bytes=${whole.length + 5}-${whole.length + 10}`, "bytes=-0"]) {
        const res = await api.get(`/api/v1/executions/${id}/logs?step=run`).set("Range", range).expect(416);
        expect(res.headers["content-range"], range).toBe(`bytes */${whole.length}`);
        expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
        expect(res.body).toMatchObject({ status: 416, code: "range_not_satisfiable" });
      }
    });

    it("serves the whole log for several ranges or a header that is not a byte range", async () => {
      for (const range of ["bytes=0-1,5-6", "lines=1-2", "bytes=abc"]) {
        const res = await log().set("Range", range).expect(200);
        expect((res.body as Buffer).equals(whole), range).toBe(true);
      }
    });

    it("follows an ended attempt to the end of its log, then ends", async () => {
      const res = await api.get(`/api/v1/executions/${id}/logs?step=run&follow=true`).buffer(true).parse(binary).expect(200);
      expect(res.headers["content-length"]).toBeUndefined();
      expect((res.body as Buffer).equals(whole)).toBe(true);
    });

    it("reads through the SDK, whole and from an offset", async () => {
      const { url, server } = await listen(fx);
      try {
        const bw = createClient({ baseUrl: url });
        expect(await readAll(bw.logs(id, { step: "run" }))).toBe(whole.toString());
        expect(await readAll(bw.logs(id, { step: "run", attempt: 1, start: 40_000 }))).toBe(whole.subarray(40_000).toString());
        expect(await readAll(bw.logs(id, { step: "run", start: whole.length }))).toBe("");
        await expect(readAll(bw.logs(id, { step: "run", attempt: 7 }))).rejects.toMatchObject({ code: "not_found" });
      } finally {
        server.close();
      }
    });
  });

  it("follows a running step live, every byte once, and ends when the step ends", async () => {
    const id = await prepared("ticker", "gated");
    const accepted = await api.post(`/api/v1/executions/${id}/run`).set("Prefer", "respond-async").expect(202);
    expect(accepted.body).toMatchObject({ step: "run", attempt: 1, state: "running" });
    const { url, server } = await listen(fx);
    try {
      const bw = createClient({ baseUrl: url });
      // Two followers, one raw and one through the SDK: the step goes on past its gate only once both have seen its first half.
      const halfway = [false, false];
      const stillRunning: boolean[] = [];
      const sawHalf = (i: number) => async (seen: string) => {
        if (halfway[i] || !seen.includes("tick 10\n")) return;
        halfway[i] = true;
        if (halfway.every(Boolean)) {
          stillRunning.push((await api.get(`/api/v1/executions/${id}/steps/run/1`)).body.state === "running");
          writeFileSync(join(gateDir, "open"), "");
        }
      };
      const [raw, sdk] = await Promise.all([
        readAll(fetchText(`${url}/api/v1/executions/${id}/logs?step=run&follow=true`), sawHalf(0)),
        readAll(bw.logs(id, { step: "run", follow: true }), sawHalf(1)),
      ]);
      // The followers saw the first half while the step was running, and ended by themselves once it had ended.
      expect(stillRunning).toEqual([true]);
      expect((await api.get(`/api/v1/executions/${id}/steps/run/1`)).body.state).toBe("succeeded");
      const expected = Array.from({ length: 20 }, (_, i) => `tick ${i + 1}\n`).join("") + "BW_METRIC ticks 20 count\n";
      expect(raw).toBe(expected);
      expect(sdk).toBe(expected);
      expect((await api.get(`/api/v1/executions/${id}/logs?step=run`).expect(200)).text).toBe(expected);
    } finally {
      rmSync(join(gateDir, "open"), { force: true });
      server.close();
    }
  }, 60_000);

  it("ends a followed log when the token that opened it is revoked, the step still running", async () => {
    const id = await prepared("ticker", "gated");
    await api.post(`/api/v1/executions/${id}/run`).set("Prefer", "respond-async").expect(202);
    const boot = "boot-token-for-the-logs-test";
    const server = createApp({ engine: fx.engine, token: boot }).listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const made = await fx.engine.createToken({ principal: "ops", role: "admin" });
      const res = await fetch(`${url}/api/v1/executions/${id}/logs?step=run&follow=true`, { headers: { Authorization: `Bearer ${made.token}` } });
      expect(res.status).toBe(200);
      let seen = "";
      const ended = (async () => {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) seen += Buffer.from(chunk).toString();
        return true;
      })().catch(() => true);
      await expect.poll(() => seen.includes("tick 3\n"), { timeout: 30_000 }).toBe(true);
      await fx.engine.revokeToken(made.id);
      expect(await Promise.race([ended, new Promise((r) => setTimeout(() => r(false), 10_000))])).toBe(true);
      // Cut at the revocation: the step, waiting at its gate, had not told its second half.
      expect(seen).not.toContain("tick 11");
      expect((await api.get(`/api/v1/executions/${id}/steps/run/1`)).body.state).toBe("running");
    } finally {
      writeFileSync(join(gateDir, "open"), "");
      server.closeAllConnections();
      server.close();
      await expect.poll(async () => (await api.get(`/api/v1/executions/${id}/steps/run/1`)).body.state, { timeout: 30_000 }).toBe("succeeded");
      rmSync(join(gateDir, "open"), { force: true });
    }
  }, 60_000);

  it("says 404 for an attempt that does not exist", async () => {
    const id = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body.id;
    const res = await api.get(`/api/v1/executions/${id}/logs?follow=true`).expect(404);
    expect(res.body).toMatchObject({ code: "not_found" });
  });
});

// On PostgreSQL the log of a step is in the database, written by whichever process runs the
// step: here a writer of the test's own stands for that process, and the server reads
// what it stores.
describe("step logs, on PostgreSQL", () => {
  let fx: Fixture;
  let api: ReturnType<typeof request>;
  let schema: Awaited<ReturnType<typeof createTestSchema>>;

  beforeAll(async () => {
    schema = await createTestSchema();
    // No worker: the running step below is driven by nobody but the test.
    fx = await openFixture({ engine: { databaseUrl: schema.url, work: false } });
    api = request(fx.app);
  }, 30_000);
  afterAll(async () => {
    await fx?.close();
    await schema?.drop();
  }, 30_000);

  it("serves ranges of, and follows, a log stored in chunks while its step runs", async () => {
    const sessionId = (await api.post("/api/v1/sessions/").send({ provider: "local", service: "default" }).expect(200)).body.id;
    const id = (await api.post(`/api/v1/sessions/${sessionId}/executions/`).send({ tool: "idle", workload: "idle0" }).expect(200)).body.id;
    const store = engineStore(fx.engine);
    const step = await store.steps.begin(id, "prepare", { from: ["created"], to: "preparing" }, new Date(), (a) => `/nowhere/prepare-${a}.log`);
    expect(step).toBeTruthy();
    const key = { execution_id: id, step: "prepare" as const, attempt: 1 };
    const writer = await new DbLogStore(store.db, { flushIntervalMs: 50 }).open(key, step!.log_file);
    const lines = Array.from({ length: 3000 }, (_, i) => `${randomUUID()} ${i}\n`);
    const expected = lines.join("");

    // Nothing stored yet: an empty log, and no range in it.
    expect((await api.get(`/api/v1/executions/${id}/logs`).expect(200)).text).toBe("");
    await api.get(`/api/v1/executions/${id}/logs`).set("Range", "bytes=0-").expect(416).expect("content-range", "bytes */0");

    const { url, server } = await listen(fx);
    try {
      const following = readAll(fetchText(`${url}/api/v1/executions/${id}/logs?step=prepare&follow=true`));
      let seenLive = "";
      const sdk = readAll(createClient({ baseUrl: url }).logs(id, { follow: true }), (seen) => (seenLive = seen));
      for (let i = 0; i < lines.length; i += 100) {
        writer.write(Buffer.from(lines.slice(i, i + 100).join("")));
        if (i === 1500) {
          await writer.flush();
          // Half written and stored: ranges of what is there, from any server.
          const size = Buffer.byteLength(lines.slice(0, 1600).join(""));
          const res = await api.get(`/api/v1/executions/${id}/logs`).set("Range", "bytes=1000-1999").expect(206);
          expect(res.headers["content-range"]).toBe(`bytes 1000-1999/${size}`);
          expect(res.text).toBe(expected.slice(1000, 2000));
          await api.get(`/api/v1/executions/${id}/logs`).set("Range", `bytes=${size}-`).expect(416).expect("content-range", `bytes */${size}`);
          // And the followers have it, while the step runs.
          while (seenLive.length < size) await new Promise((r) => setTimeout(r, 20));
          expect(seenLive).toBe(expected.slice(0, size));
        }
        await new Promise((r) => setTimeout(r, 5));
      }
      await writer.close();
      await store.steps.end(
        { execution_id: id, step: "prepare", attempt: 1 },
        { state: "succeeded", duration: 1, exit_code: 0, error: null, metrics: null },
        { from: "preparing", to: "prepared" },
      );
      expect(await following).toBe(expected);
      expect(await sdk).toBe(expected);
      const whole = await api.get(`/api/v1/executions/${id}/logs?step=prepare&attempt=1`).expect(200);
      expect(whole.text).toBe(expected);
      expect(Number(whole.headers["content-length"])).toBe(expected.length);
      const [{ log_bytes }] = await store.db.query<{ log_bytes: string }>("SELECT log_bytes FROM steps WHERE execution_id = $1", [id]);
      expect(Number(log_bytes)).toBe(expected.length);
    } finally {
      server.close();
    }
  }, 60_000);
});
