import { request as httpRequest, type ClientRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { BwEvent, EventFilter } from "@benchwright/engine";
import { startTcpProxy } from "@benchwright/testing";
import { createClient, type BenchwrightEvent } from "@benchwright/sdk";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../app.js";
import { streamEvents } from "../api/event-stream.js";
import { openFixture, type Fixture } from "../test-support/fixture.js";
import { listen, type Listening } from "../test-support/raw-http.js";

const TOKEN = "events-test-token";
const AUTH = { Authorization: `Bearer ${TOKEN}` };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One SSE block as the server wrote it. */
interface Block {
  id?: string;
  event?: string;
  data?: string;
  retry?: string;
  comment?: string;
}

/**
 * A plain SSE reader on node:http, so that the test sees the bytes the server writes and can
 * cut the connection wherever it likes (a partly received message is then simply lost).
 */
interface RawStream {
  res: IncomingMessage;
  blocks: Block[];
  /** Resolves once `until` holds for what was received (checked at every block). */
  until(done: (blocks: Block[]) => boolean): Promise<void>;
  /** The connection drops: the socket is destroyed, whatever was under way. */
  drop(): void;
}

function openStream(port: number, path: string, headers: Record<string, string> = {}): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const req: ClientRequest = httpRequest({ host: "127.0.0.1", port, path, headers: { ...AUTH, ...headers }, agent: false }, (res) => {
      const blocks: Block[] = [];
      const waiters: Array<() => void> = [];
      let buffer = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block: Block = {};
          for (const line of buffer.slice(0, end).split("\n")) {
            if (line.startsWith(":")) block.comment = line.slice(1).trim();
            else {
              const colon = line.indexOf(":");
              block[line.slice(0, colon) as Exclude<keyof Block, "comment">] = line.slice(colon + 1).replace(/^ /, "");
            }
          }
          buffer = buffer.slice(end + 2);
          blocks.push(block);
        }
        for (const wake of waiters.splice(0)) wake();
      });
      res.on("error", () => {});
      resolve({
        res,
        blocks,
        async until(done) {
          while (!done(blocks)) {
            if (res.destroyed || res.complete) throw new Error(`the stream ended: ${JSON.stringify(blocks.slice(-3))}`);
            await new Promise<void>((wake) => waiters.push(wake));
          }
        },
        drop: () => req.destroy(),
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** The events of a stream's blocks, each checked against its `id:` and `event:` lines. */
function eventsOf(blocks: Block[]): BwEvent[] {
  return blocks
    .filter((b) => b.data !== undefined)
    .map((b) => {
      const event = JSON.parse(b.data!) as BwEvent;
      expect(b.id).toBe(String(event.id));
      expect(b.event).toBe(event.type);
      return event;
    });
}

/** Where a stream started or got to: the id of its last block that had one. */
const lastIdOf = (blocks: Block[]) => Number(blocks.filter((b) => b.id !== undefined).at(-1)?.id);

describe("GET /api/v1/events", () => {
  let fx: Fixture;
  let http: Listening;

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await http.send(method, `/api/v1${path}`, {
      headers: { ...AUTH, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${res.text}`);
    return res.json as { id: string };
  };
  const newSession = async () => (await call("POST", "/sessions/", { provider: "local", service: "default" })).id;
  const newExecution = async (sid: string) => (await call("POST", `/sessions/${sid}/executions/`, { tool: "idle", workload: "idle0" })).id;

  /** Makes events until stopped: sessions, executions, prepare and run of idle0 (real, instant steps), deletions. */
  function generate() {
    let stopped = false;
    let rounds = 0;
    const done = (async () => {
      while (!stopped) {
        const sid = await newSession();
        const eid = await newExecution(sid);
        await call("POST", `/executions/${eid}/prepare`);
        await call("POST", `/executions/${eid}/run`);
        if (rounds % 3 === 0) await call("DELETE", `/sessions/${sid}`);
        rounds++;
      }
    })();
    return {
      get rounds() {
        return rounds;
      },
      async stop() {
        stopped = true;
        await done;
      },
    };
  }

  const everything = async (filter: EventFilter, after: number) => (await fx.engine.readEvents(filter, after, 1_000_000)).map((e) => e.id);

  beforeAll(async () => {
    fx = await openFixture({ token: TOKEN });
    http = await listen(fx.app);
  });

  afterAll(async () => {
    await http?.close();
    await fx?.close();
  });

  it("streams each change as an SSE message, from now, behind the bearer token", async () => {
    const refused = await http.send("GET", "/api/v1/events");
    expect(refused.status).toBe(401);
    expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);

    const before = await fx.engine.lastEventId();
    await newSession(); // before the stream: not in it
    const stream = await openStream(http.port, "/api/v1/events");
    expect(stream.res.statusCode).toBe(200);
    expect(stream.res.headers["content-type"]).toMatch(/^text\/event-stream/);
    expect(stream.res.headers["cache-control"]).toMatch(/no-cache/);
    expect(stream.res.headers["x-accel-buffering"]).toBe("no");
    expect(stream.res.headers["content-encoding"]).toBeUndefined();
    await stream.until((b) => b.length >= 1);
    // It says where it starts (the last event before it), and how long to wait before reconnecting.
    expect(stream.blocks[0]).toEqual({ retry: "2000", id: String(before + 1) });

    const sid = await newSession();
    const eid = await newExecution(sid);
    await call("POST", `/executions/${eid}/prepare`);
    await stream.until((b) => eventsOf(b).some((e) => e.type === "execution.state" && e.data.state === "prepared"));
    stream.drop();
    const events = eventsOf(stream.blocks);
    // The log's growth is told too (how often depends on timing): every other event, in this order.
    expect(events.map((e) => e.type).filter((t) => t !== "step.log")).toEqual([
      "session.created",
      "execution.created",
      "execution.state",
      "step.started",
      "step.finished",
      "execution.state",
    ]);
    const grown = events.filter((e) => e.type === "step.log");
    expect(grown.at(-1)).toMatchObject({ execution_id: eid, data: { step: "prepare", attempt: 1, bytes: expect.any(Number) } });
    expect(events[0]).toEqual({
      id: before + 2,
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      type: "session.created",
      session_id: sid,
      execution_id: null,
      data: { provider: "local", service_type: "default" },
    });
    expect(events.find((e) => e.type === "step.finished")).toMatchObject({
      session_id: sid,
      execution_id: eid,
      data: { step: "prepare", attempt: 1, state: "succeeded", exit_code: 0 },
    });
    expect(events.map((e) => e.id)).toEqual(await everything({}, before + 1));
  });

  it("tells what an execution was created with: its parameters, defaults included, and how its runs repeat", async () => {
    const start = await fx.engine.lastEventId();
    const sid = await newSession();
    const stream = await openStream(http.port, `/api/v1/events?session_id=${sid}&types=execution.created&last_event_id=${start}`);
    const repeated = (
      await call("POST", `/sessions/${sid}/executions/`, {
        tool: "idle",
        workload: "idle5",
        params: { seconds: 1 },
        repetitions: { count: 3 },
      })
    ).id;
    const plain = await newExecution(sid);
    await stream.until((b) => eventsOf(b).length >= 2);
    stream.drop();
    expect(eventsOf(stream.blocks).map((e) => [e.execution_id, e.data])).toEqual([
      [repeated, { tool: "idle", workload: "idle5", params: { seconds: 1 }, repetitions: { count: 3 } }],
      [plain, { tool: "idle", workload: "idle0", params: {} }],
    ]);
  });

  it("filters by session, by execution and by type", async () => {
    const start = await fx.engine.lastEventId();
    const [s1, s2] = [await newSession(), await newSession()];
    const [e1, e2, e3] = [await newExecution(s1), await newExecution(s1), await newExecution(s2)];
    const filters: Array<[string, EventFilter]> = [
      [`session_id=${s1}`, { session_id: s1 }],
      [`execution_id=${e1}`, { execution_id: e1 }],
      ["types=execution.state,step.finished", { types: ["execution.state", "step.finished"] }],
      [`session_id=${s2}&types=step.started`, { session_id: s2, types: ["step.started"] }],
    ];
    const streams = await Promise.all(filters.map(([query]) => openStream(http.port, `/api/v1/events?${query}&last_event_id=${start}`)));
    for (const eid of [e1, e2, e3]) {
      await call("POST", `/executions/${eid}/prepare`);
      await call("POST", `/executions/${eid}/run`);
    }
    for (const [i, [query, filter]] of filters.entries()) {
      const expected = await everything(filter, start);
      expect(expected.length, query).toBeGreaterThan(0);
      await streams[i].until((b) => eventsOf(b).at(-1)?.id === expected.at(-1));
      expect(
        eventsOf(streams[i].blocks).map((e) => e.id),
        query,
      ).toEqual(expected);
      streams[i].drop();
    }
  });

  it("replays the whole log from last_event_id=0, and the header wins over the query", async () => {
    const all = await everything({}, 0);
    const replay = await openStream(http.port, "/api/v1/events?last_event_id=0");
    await replay.until((b) => eventsOf(b).length >= all.length);
    expect(
      eventsOf(replay.blocks)
        .slice(0, all.length)
        .map((e) => e.id),
    ).toEqual(all);
    replay.drop();
    const both = await openStream(http.port, "/api/v1/events?last_event_id=0", { "Last-Event-ID": String(all.at(-3)) });
    await both.until((b) => eventsOf(b).length >= 2);
    expect(
      eventsOf(both.blocks)
        .slice(0, 2)
        .map((e) => e.id),
    ).toEqual(all.slice(-2));
    both.drop();
  });

  it("refuses parameters the contract does not allow", async () => {
    for (const [path, headers] of [
      ["/api/v1/events?session_id=not-a-uuid", {}],
      ["/api/v1/events?types=session.created,nope", {}],
      ["/api/v1/events?last_event_id=-1", {}],
      ["/api/v1/events?last_event_id=1e309", {}],
      ["/api/v1/events", { "Last-Event-ID": "abc" }],
    ] as Array<[string, Record<string, string>]>) {
      const res = await http.send("GET", path, { headers: { ...AUTH, ...headers } });
      expect(res.status, path).toBe(400);
      expect(res.json, path).toMatchObject({ status: 400, code: "validation_failed" });
    }
  });

  it("An SSE client that drops and reconnects with Last-Event-ID loses no event and sees none twice", async () => {
    const generator = generate();
    const received: BwEvent[] = [];
    let start: number | undefined;
    let last: number | undefined;
    try {
      // Four connections, each cut after a few more events, wherever the bytes are then.
      for (let round = 0; round < 4; round++) {
        const stream = await openStream(http.port, "/api/v1/events", last === undefined ? {} : { "Last-Event-ID": String(last) });
        await stream.until((b) => eventsOf(b).length >= 5 + round);
        stream.drop();
        start ??= Number(stream.blocks[0].id);
        received.push(...eventsOf(stream.blocks));
        last = lastIdOf(stream.blocks);
      }
      expect(generator.rounds).toBeGreaterThan(0);
    } finally {
      await generator.stop();
    }
    // The last reconnection reads up to the end of what was generated.
    const end = await fx.engine.lastEventId();
    const final = await openStream(http.port, "/api/v1/events", { "Last-Event-ID": String(last) });
    await final.until((b) => lastIdOf(b) === end);
    final.drop();
    received.push(...eventsOf(final.blocks));

    const ids = received.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(await everything({}, start!));
    expect(received).toEqual(await fx.engine.readEvents({}, start!, 1_000_000));
  }, 60_000);

  it("through the SDK: a connection cut mid-stream is resumed, nothing lost, nothing twice", async () => {
    const proxy = await startTcpProxy({ host: "127.0.0.1", port: http.port });
    let requests = 0;
    const client = createClient({
      baseUrl: `http://127.0.0.1:${proxy.port}`,
      token: TOKEN,
      fetch: (r) => {
        requests++;
        return fetch(r);
      },
    });
    const start = await fx.engine.lastEventId();
    const abort = new AbortController();
    const received: BenchwrightEvent[] = [];
    const following = (async () => {
      for await (const e of client.events({ lastEventId: start, signal: abort.signal })) received.push(e);
    })();
    const generator = generate();
    try {
      while (received.length < 5) await sleep(20);
      proxy.cut();
      const seenAtCut = received.length;
      const roundsAtCut = generator.rounds;
      while (generator.rounds < roundsAtCut + 2) await sleep(20);
      proxy.restore();
      while (received.length <= seenAtCut) await sleep(20);
    } finally {
      await generator.stop();
    }
    const end = await fx.engine.lastEventId();
    while (received.at(-1)?.id !== end) await sleep(20);
    abort.abort();
    await following;
    await proxy.close();

    expect(requests).toBeGreaterThanOrEqual(2);
    expect(received.map((e) => e.id)).toEqual(await everything({}, start));
  }, 60_000);

  it("refuses a subscriber past the cap with a 429 problem and Retry-After, and takes one again once a stream ends", async () => {
    // The fixture's engine behind an app of its own, which takes two subscribers.
    const capped = await listen(createApp({ engine: fx.engine, token: TOKEN, validateResponses: true, maxEventSubscribers: 2 }));
    const streams: RawStream[] = [];
    try {
      streams.push(await openStream(capped.port, "/api/v1/events"), await openStream(capped.port, "/api/v1/events"));
      expect(streams.map((s) => s.res.statusCode)).toEqual([200, 200]);
      const refused = await capped.send("GET", "/api/v1/events?last_event_id=0", { headers: AUTH });
      expect(refused.status).toBe(429);
      expect(refused.headers["content-type"]).toMatch(/^application\/problem\+json/);
      expect(refused.headers["retry-after"]).toBe("5");
      expect(refused.json).toMatchObject({
        status: 429,
        code: "too_many_subscribers",
        retry_after: 5,
        title: "Too many event subscribers",
      });
      expect((refused.json as { detail: string }).detail).toContain("2 subscribers");
      // Only the streams are counted, and /metrics tells how many are open.
      expect((await capped.send("GET", "/api/v1/sessions/", { headers: AUTH })).status).toBe(200);
      const metrics = await capped.send("GET", "/metrics", { headers: AUTH });
      expect(metrics.text).toMatch(/^benchwright_event_streams_open 2$/m);

      // The open streams still stream.
      const sid = await newSession();
      await Promise.all(streams.map((s) => s.until((b) => eventsOf(b).some((e) => e.session_id === sid))));

      streams.shift()!.drop();
      // Its place is free once the server has seen it go.
      const deadline = Date.now() + 5_000;
      for (;;) {
        const again = await openStream(capped.port, "/api/v1/events");
        if (again.res.statusCode === 200) {
          streams.push(again);
          break;
        }
        again.drop();
        if (Date.now() > deadline) throw new Error(`still refused: ${again.res.statusCode}`);
        await sleep(20);
      }
      expect((await capped.send("GET", "/api/v1/events", { headers: AUTH })).status).toBe(429);
    } finally {
      for (const s of streams) s.drop();
      await capped.close();
    }
  });

  it("writes keepalive comments, and lets go of the log when the client goes away", async () => {
    const app = express();
    let ended!: Promise<void>;
    app.get("/events", (req, res) => {
      ended = streamEvents(fx.engine, req, res, { keepaliveMs: 20 });
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((r) => server.once("listening", r));
    try {
      const stream = await openStream((server.address() as AddressInfo).port, "/events");
      await stream.until((b) => b.filter((x) => x.comment === "keepalive").length >= 2);
      stream.drop();
      // Resolves only once the subscription has ended: a stream that outlived its client would hang here.
      await ended;
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
