import type { Scrubber } from "../secrets/scrub.js";
import { BytePatterns } from "./byte-patterns.js";
import type { LogWriter } from "./log-store.js";

/**
 * A start of a secret's form at least this long, left at the very end of a part's output, is
 * masked too: the step died printing it. A shorter one stays (4 hex digits tell little, and
 * masking every stray `a` at an output's end would garble it).
 */
const MASKED_PREFIX = 8;

const STAR = "*".charCodeAt(0);

/**
 * A step's log that never stores what `scrubber` masks (the session's credentials, and
 * BW_STEP_SECRET, which a role part's script can read, and so print), in any form it knows
 * (as is, escaped, URL-encoded, base64): each occurrence is written as as many `*`, also when
 * it arrives cut across chunks. Masking keeps the length, so every offset stays the host's (a
 * re-follow, `Range`, `machine_log_start`).
 *
 * The end of a chunk that may begin a form is held back until the next chunk tells.
 * `bytes` counts it: a follow stopped for backpressure goes on after it, the same stream.
 * `tail` and `flush` come once the output before them has ended, and write it. `close`
 * without them is a hand-back: the held bytes are not stored, and the next holder, which
 * follows on from the stored size, reads them again from the host with what comes after.
 */
export function maskingSecrets(inner: LogWriter, scrubber: Scrubber | undefined): LogWriter {
  if (!scrubber?.forms.length) return inner;
  return new SecretMaskingWriter(inner, patternsOf(scrubber));
}

/**
 * The search for a scrubber's forms, made once per scrubber (the engine keeps one per
 * session): a 4096-bit private key makes hundreds of forms, whose search takes some 100 ms to build.
 */
const searches = new WeakMap<Scrubber, BytePatterns>();
function patternsOf(scrubber: Scrubber): BytePatterns {
  let patterns = searches.get(scrubber);
  if (!patterns) searches.set(scrubber, (patterns = new BytePatterns(scrubber.forms.map((f) => Buffer.from(f, "utf8")))));
  return patterns;
}

class SecretMaskingWriter implements LogWriter {
  /** The last bytes seen, not written yet: they may begin a form. */
  private held = Buffer.alloc(0);
  /** Which of the held bytes are part of a form seen whole already (1), to be written as stars. */
  private heldMask = new Uint8Array(0);
  /** Where the search stands after the held bytes. */
  private state = 0;

  constructor(
    private readonly inner: LogWriter,
    private readonly patterns: BytePatterns,
  ) {}

  get bytes(): number {
    return this.inner.bytes + this.held.length;
  }

  get writable(): boolean {
    return this.inner.writable;
  }

  write(chunk: Buffer): void {
    const start = this.held.length;
    // A new buffer: the caller's chunk stays as it was.
    const data = Buffer.concat([this.held, chunk]);
    const mask = new Uint8Array(data.length);
    mask.set(this.heldMask);
    let state = this.state;
    for (let i = start; i < data.length; i++) {
      state = this.patterns.step(state, data[i]);
      const length = this.patterns.matched(state);
      // Every byte of a match is in `data`: it is no longer than the state's depth, which the held bytes cover.
      if (length) mask.fill(1, i + 1 - length, i + 1);
    }
    this.state = state;
    const keep = this.patterns.depth(state);
    const out = data.length - keep;
    starred(data, mask, 0, out);
    this.inner.write(data.subarray(0, out));
    this.held = data.subarray(out);
    this.heldMask = mask.subarray(out);
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
      const held = this.held.subarray(0, size - this.inner.bytes);
      this.forget();
      // What is kept is looked at anew, as if it had just come.
      if (held.length) this.write(held);
      return;
    }
    this.forget();
    await this.inner.truncate(size);
  }

  close(signal?: AbortSignal): Promise<void> {
    this.forget();
    return this.inner.close(signal);
  }

  private forget(): void {
    this.held = Buffer.alloc(0);
    this.heldMask = new Uint8Array(0);
    this.state = 0;
  }

  /** Writes what was held back: the output it might have continued has ended. */
  private release(): void {
    if (!this.held.length) return;
    const held = this.held;
    if (held.length >= MASKED_PREFIX) held.fill(STAR);
    else starred(held, this.heldMask, 0, held.length);
    this.forget();
    this.inner.write(held);
  }
}

/** Replaces the bytes of `data` from `from` to `to` that `mask` marks with stars. */
function starred(data: Buffer, mask: Uint8Array, from: number, to: number): void {
  for (let i = from; i < to; i++) if (mask[i]) data[i] = STAR;
}
