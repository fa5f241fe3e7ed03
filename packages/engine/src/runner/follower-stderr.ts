/** The header before the telemetry a follower sends with a step's end: `bw-telemetry:<bytes>\n`, then that many bytes. */
const HEADER = /(?:^|\n)bw-telemetry:(\d+)\n/;
/** What is kept of the rest: the pgid, heartbeat dots and the end marker come last. */
const TAIL_CHARS = 4096;

/**
 * A follower's stderr as it arrives: the last few KiB of its lines (pgid, end marker), and
 * apart from them the step's telemetry.log, which the follower sends once the step has ended
 * (remote-scripts.ts) so that no command of its own is needed to read it. Chunks may cut
 * anywhere, the header included. Latin-1 keeps one character per byte, so counts are bytes.
 */
export class FollowerStderr {
  #tail = "";
  #want = 0;
  #telemetry: string[] | undefined;
  #complete: string | undefined;

  /** The last few KiB of what was not telemetry. */
  get text(): string {
    return this.#tail;
  }

  /** The telemetry the follower sent whole, if it did. */
  get telemetry(): string | undefined {
    return this.#complete;
  }

  push(chunk: Buffer): void {
    let text = chunk.toString("latin1");
    while (text.length > 0) {
      if (this.#want > 0) {
        const take = text.slice(0, this.#want);
        this.#telemetry!.push(take);
        this.#want -= take.length;
        text = text.slice(take.length);
        if (this.#want === 0) this.#finish();
        continue;
      }
      const joined = this.#tail + text;
      const m = HEADER.exec(joined);
      if (!m) {
        this.#tail = joined.slice(-TAIL_CHARS);
        return;
      }
      // What came before the header stays in the tail; the header itself goes.
      this.#tail = joined.slice(0, m.index + (m[0].startsWith("\n") ? 1 : 0)).slice(-TAIL_CHARS);
      this.#want = Number(m[1]);
      this.#telemetry = [];
      text = joined.slice(m.index + m[0].length);
      if (this.#want === 0) this.#finish();
    }
  }

  #finish(): void {
    this.#complete = Buffer.from(this.#telemetry!.join(""), "latin1").toString("utf8");
    this.#telemetry = undefined;
  }
}
