/** One Server-Sent Events message, as the fields it had. */
export interface SseMessage {
  id?: string;
  event?: string;
  /** The `data:` lines joined by line feeds; undefined when it had none. */
  data?: string;
  /** Milliseconds to wait before reconnecting, when the server said. */
  retry?: number;
}

/**
 * Parses a `text/event-stream` body (the WHATWG HTML "event stream interpretation"): lines end
 * in CRLF, LF or CR, a line starting with `:` is a comment, a blank line ends a message. A
 * message cut off by the end of the stream is dropped, as a browser does.
 */
export async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let message: SseMessage = {};
  let fields = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (;;) {
        const end = buffer.search(/[\r\n]/);
        if (end < 0) break;
        // A CR at the end of what arrived may be the first half of a CRLF: wait for more.
        if (buffer[end] === "\r" && end === buffer.length - 1 && !done) break;
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith("\r\n", end) ? 2 : 1));
        if (line === "") {
          if (fields > 0) yield message;
          message = {};
          fields = 0;
          continue;
        }
        if (line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const name = colon < 0 ? line : line.slice(0, colon);
        let value = colon < 0 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (name === "data") message.data = message.data === undefined ? value : `${message.data}\n${value}`;
        else if (name === "event") message.event = value;
        else if (name === "id" && !value.includes("\0")) message.id = value;
        else if (name === "retry" && /^\d+$/.test(value)) message.retry = Number(value);
        else continue;
        fields++;
      }
      if (done) return;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}
