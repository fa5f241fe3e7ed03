import { describe, expect, it } from "vitest";
import { sseMessages, type SseMessage } from "./sse.js";

/** A body that arrives in the given pieces. */
function body(...chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(typeof c === "string" ? encoder.encode(c) : c);
      controller.close();
    },
  });
}

async function parse(stream: ReadableStream<Uint8Array>): Promise<SseMessage[]> {
  const out: SseMessage[] = [];
  for await (const m of sseMessages(stream)) out.push(m);
  return out;
}

const STREAM = 'retry: 2000\nid: 41\n\n: keepalive\n\nid: 42\nevent: session.state\ndata: {"a":1}\n\ndata: one\ndata:two\n\n';
const EXPECTED: SseMessage[] = [{ retry: 2000, id: "41" }, { id: "42", event: "session.state", data: '{"a":1}' }, { data: "one\ntwo" }];

describe("the event-stream parser", () => {
  it("reads ids, types, multi-line data and retry, and skips comments", async () => {
    expect(await parse(body(STREAM))).toEqual(EXPECTED);
  });

  it("reads the same however the bytes are cut, and with CRLF or CR line ends", async () => {
    for (const eol of ["\n", "\r\n", "\r"]) {
      const text = STREAM.replace(/\n/g, eol);
      for (let cut = 0; cut <= text.length; cut++) {
        expect(await parse(body(text.slice(0, cut), text.slice(cut))), `${JSON.stringify(eol)} cut at ${cut}`).toEqual(EXPECTED);
      }
    }
  });

  it("keeps a character whose bytes arrive in two pieces", async () => {
    const bytes = new TextEncoder().encode("data: é€\n\n");
    expect(await parse(body(bytes.slice(0, 7), bytes.slice(7)))).toEqual([{ data: "é€" }]);
  });

  it("drops a message the end of the stream cut off", async () => {
    expect(await parse(body('id: 1\ndata: {"whole":true}\n\nid: 2\ndata: {"cut'))).toEqual([{ id: "1", data: '{"whole":true}' }]);
  });

  it("ignores unknown fields and a retry that is not a number", async () => {
    expect(await parse(body("foo: bar\nretry: soon\ndata\n\n"))).toEqual([{ data: "" }]);
  });
});
