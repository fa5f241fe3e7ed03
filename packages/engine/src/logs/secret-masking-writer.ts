import type { LogWriter } from "./log-store.js";

/**
 * A prefix of the secret at least this long, left at the very end of a part's output, is
 * masked too: the step died printing it. A shorter one stays (4 hex digits tell little, and
 * masking every stray `a` at an output's end would garble it).
 */
const MASKED_PREFIX = 8;

/**
 * A step's log that never stores `secret` (BW_STEP_SECRET, which a role part's script can
 * read, and so print): each occurrence is written as as many `*`, also when it arrives cut
 * across chunks. Masking keeps the length, so every offset stays the host's (a re-follow,
 * `Range`, `machine_log_start`).
 *
 * The end of a chunk that may begin the secret is held back until the next chunk tells.
 * `bytes` counts it: a follow stopped for backpressure goes on after it, the same stream.
 * `tail` and `flush` come once the output before them has ended, and write it. `close`
 * without them is a hand-back: the held bytes are not stored, and the next holder, which
 * follows on from the stored size, reads them again from the host with what comes after.
 */
export function maskingSecret(inner: LogWriter, secret: string | undefined): LogWriter {
  return secret ? new SecretMaskingWriter(inner, Buffer.from(secret)) : inner;
}

class SecretMaskingWriter implements LogWriter {
  private held = Buffer.alloc(0);
  private readonly stars: Buffer;

  constructor(
    private readonly inner: LogWriter,
    private readonly secret: Buffer,
  ) {
    this.stars = Buffer.alloc(secret.length, "*");
  }

  get bytes(): number {
    return this.inner.bytes + this.held.length;
  }

  get writable(): boolean {
    return this.inner.writable;
  }

  write(chunk: Buffer): void {
    let data = this.held.length ? Buffer.concat([this.held, chunk]) : chunk;
    let at = data.indexOf(this.secret);
    if (at >= 0 && data === chunk) data = Buffer.from(chunk); // the caller's buffer stays as it was
    for (; at >= 0; at = data.indexOf(this.secret, at + this.secret.length)) this.stars.copy(data, at);
    const keep = this.prefixAtEnd(data);
    this.inner.write(keep ? data.subarray(0, data.length - keep) : data);
    this.held = keep ? Buffer.from(data.subarray(data.length - keep)) : Buffer.alloc(0);
  }

  drain(signal?: AbortSignal): Promise<void> {
    return this.inner.drain(signal);
  }

  tail(max: number, from?: number): string {
    this.release();
    return this.inner.tail(max, from);
  }

  flush(signal?: AbortSignal): Promise<void> {
    this.release();
    return this.inner.flush(signal);
  }

  async truncate(size: number): Promise<void> {
    if (size >= this.inner.bytes) {
      this.held = this.held.subarray(0, size - this.inner.bytes);
      return;
    }
    this.held = Buffer.alloc(0);
    await this.inner.truncate(size);
  }

  close(signal?: AbortSignal): Promise<void> {
    this.held = Buffer.alloc(0);
    return this.inner.close(signal);
  }

  /** How many bytes at the end of `data` begin the secret (fewer than all of it). */
  private prefixAtEnd(data: Buffer): number {
    const first = this.secret[0];
    for (let n = Math.min(this.secret.length - 1, data.length); n > 0; n--) {
      const start = data.length - n;
      if (data[start] === first && data.compare(this.secret, 0, n, start) === 0) return n;
    }
    return 0;
  }

  /** Writes what was held back: the output it might have continued has ended. */
  private release(): void {
    if (!this.held.length) return;
    const held = this.held.length >= MASKED_PREFIX ? this.stars.subarray(0, this.held.length) : this.held;
    this.held = Buffer.alloc(0);
    this.inner.write(held);
  }
}
