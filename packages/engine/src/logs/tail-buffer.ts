/**
 * The last `capacity` bytes of a growing log, kept in memory so that the parser reads
 * a step's output without a round trip to where the log is stored.
 */
export class TailBuffer {
  #chunks: Buffer[] = [];
  /** Bytes held in #chunks. */
  #held = 0;
  /** Absolute offset just past the last byte held. */
  #end: number;

  constructor(
    readonly capacity: number,
    /** Absolute offset at which the next pushed byte lands. */
    end = 0,
  ) {
    this.#end = end;
  }

  get end(): number {
    return this.#end;
  }

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.#end += chunk.length;
    if (chunk.length >= this.capacity) {
      // Copied: a slice would keep the whole (larger) chunk alive.
      this.#chunks = [Buffer.from(chunk.subarray(chunk.length - this.capacity))];
      this.#held = this.capacity;
      return;
    }
    this.#chunks.push(chunk);
    this.#held += chunk.length;
    this.#trim();
    // Many tiny chunks cost more in bookkeeping than in bytes: fold them into one.
    if (this.#chunks.length > 4096) this.#chunks = [Buffer.concat(this.#chunks)];
  }

  /** The last `max` bytes at or after absolute offset `from`, as UTF-8 text. */
  text(max: number, from = 0): string {
    const start = Math.max(from, this.#end - Math.min(max, this.#held));
    let need = this.#end - start;
    const parts: Buffer[] = [];
    for (let i = this.#chunks.length - 1; i >= 0 && need > 0; i--) {
      const chunk = this.#chunks[i];
      parts.push(chunk.length <= need ? chunk : chunk.subarray(chunk.length - need));
      need -= Math.min(need, chunk.length);
    }
    return Buffer.concat(parts.reverse()).toString("utf8");
  }

  /** Forgets every byte from absolute offset `size` on. */
  truncate(size: number): void {
    if (size >= this.#end) return;
    let drop = this.#end - size;
    while (drop > 0 && this.#chunks.length > 0) {
      const last = this.#chunks[this.#chunks.length - 1];
      if (last.length <= drop) {
        this.#chunks.pop();
        this.#held -= last.length;
        drop -= last.length;
      } else {
        this.#chunks[this.#chunks.length - 1] = last.subarray(0, last.length - drop);
        this.#held -= drop;
        drop = 0;
      }
    }
    this.#end = size;
  }

  #trim(): void {
    let over = this.#held - this.capacity;
    while (over > 0) {
      const first = this.#chunks[0];
      if (first.length <= over) {
        this.#chunks.shift();
        this.#held -= first.length;
        over -= first.length;
      } else {
        this.#chunks[0] = first.subarray(over);
        this.#held -= over;
        over = 0;
      }
    }
  }
}
