import { beforeEach, describe, expect, inject, it } from "vitest";
import { createClient } from "./client.js";
import { BenchwrightProblemError } from "./errors.js";
import type { BenchwrightEvent } from "./types.js";

// Against `prism mock`: it answers /events with the contract's example stream (events 42 and
// 43) and closes it, so every answer looks like a dropped connection to the client.

const prismUrl = inject("prismUrl");
const SESSION_ID = "3f1c6f1e-8a0e-4f7e-9a51-6f0d2b7c9a11";
const EXEC_ID = "9b2e4d6a-1c3f-4e5a-8b7d-0a1b2c3d4e5f";

const sent: Request[] = [];
const recordingFetch = (request: Request) => {
  sent.push(request.clone());
  return fetch(request);
};
const bw = createClient({ baseUrl: prismUrl, token: "t", fetch: recordingFetch });

beforeEach(() => {
  sent.length = 0;
});

/** Collects events until `enough` says so, then aborts; resolves with what the loop yielded. */
async function collect(
  iterable: (signal: AbortSignal) => AsyncIterable<BenchwrightEvent>,
  enough: (seen: BenchwrightEvent[]) => boolean,
): Promise<BenchwrightEvent[]> {
  const abort = new AbortController();
  const seen: BenchwrightEvent[] = [];
  const watch = setInterval(() => enough(seen) && abort.abort(), 10);
  try {
    for await (const e of iterable(abort.signal)) seen.push(e);
  } finally {
    clearInterval(watch);
  }
  return seen;
}

describe("events()", () => {
  it("yields typed events, reconnects with Last-Event-ID after a drop, and yields none twice", async () => {
    // Three requests: the second answer (the same two events again) was read whole.
    const seen = await collect(
      (signal) => bw.events({ signal, retryMs: 10 }),
      () => sent.length >= 3,
    );
    expect(seen.map((e) => [e.id, e.type])).toEqual([
      [42, "execution.state"],
      [43, "step.started"],
    ]);
    const first = seen[0];
    if (first.type !== "execution.state") throw new Error("narrowed by type");
    expect(first.data).toEqual({ state: "preparing", previous: "created" });
    expect(sent[0].headers.get("Last-Event-ID")).toBeNull();
    expect(sent[0].headers.get("Accept")).toMatch(/^text\/event-stream\b/);
    expect(sent[0].headers.get("Authorization")).toBe("Bearer t");
    // The example stream asks for `retry: 2000`; the second request came after it and resumed.
    expect(sent.slice(1).map((r) => r.headers.get("Last-Event-ID"))).toEqual(sent.slice(1).map(() => "43"));
  }, 20_000);

  it("resumes from a given id, and sends the filters as the contract spells them", async () => {
    const seen = await collect(
      (signal) => bw.events({ signal, lastEventId: 42, sessionId: SESSION_ID, executionId: EXEC_ID, types: ["execution.state", "step.started"] }),
      (seen) => seen.length > 0,
    );
    expect(seen.map((e) => e.id)).toEqual([43]);
    const url = new URL(sent[0].url);
    expect(url.pathname).toBe("/api/v1/events");
    expect(url.searchParams.get("session_id")).toBe(SESSION_ID);
    expect(url.searchParams.get("execution_id")).toBe(EXEC_ID);
    expect(url.searchParams.get("types")).toBe("execution.state,step.started");
    expect(sent[0].headers.get("Last-Event-ID")).toBe("42");
  });

  it("yields only the asked types even from a server that ignores the filter, and still resumes past the others", async () => {
    // Prism answers the example stream whatever the filter: step.started only, then resumed after 43.
    const seen = await collect(
      (signal) => bw.events({ signal, retryMs: 10, types: ["step.started"] }),
      () => sent.length >= 2,
    );
    expect(seen.map((e) => [e.id, e.type])).toEqual([[43, "step.started"]]);
    expect(sent[1].headers.get("Last-Event-ID")).toBe("43");
  }, 20_000);

  it("throws the problem of a refused request instead of retrying", async () => {
    const iteration = bw.events({ headers: { Prefer: "code=401" } })[Symbol.asyncIterator]();
    const error = await iteration.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BenchwrightProblemError);
    expect(error).toMatchObject({ status: 401, code: "unauthorized" });
    expect(sent).toHaveLength(1);
  });

  it("asks again while the server is unavailable, and ends quietly when aborted", async () => {
    const seen = await collect(
      (signal) => bw.events({ signal, retryMs: 10, headers: { Prefer: "code=503" } }),
      () => sent.length >= 3,
    );
    expect(seen).toEqual([]);
    expect(sent.length).toBeGreaterThanOrEqual(3);
  });

  it("closes the connection when the loop is left", async () => {
    for await (const e of bw.events({ retryMs: 10 })) {
      expect(e.id).toBe(42);
      break;
    }
    expect(sent).toHaveLength(1);
  });
});
