import type { Scrubber } from "../secrets/scrub.js";
import { FormSearch } from "./form-search.js";
import type { LogWriter } from "./log-store.js";

/**
 * A start of a secret's form at least this long, left at the very end of a part's output, is
 * masked too: the step died printing it. A shorter one stays (4 hex digits tell little, and
 * masking every stray `a` at an output's end would garble it).
 */
const MASKED_PREFIX = 8;

const STAR = "*".charCodeAt(0);
const EMPTY = Buffer.alloc(0);

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
  return new SecretMaskingWriter(inner, searchOf(scrubber));
}

/**
 * The search for a scrubber's forms, made once per scrubber (the engine keeps one per
 * session): a 4096-bit private key makes hundreds of forms.
 */
const searches = new WeakMap<Scrubber, FormSearch>();
function searchOf(scrubber: Scrubber): FormSearch {
  let search = searches.get(scrubber);
  if (!search) searches.set(scrubber, (search = new FormSearch(scrubber.forms.map((f) => Buffer.from(f, "utf8")))));
  return search;
}

class SecretMaskingWriter implements LogWriter {
  /**
   * The last bytes seen, not written yet, as they came: they may begin a form. They are
   * looked at again with the next chunk, so a form they hold whole is found again then.
   */
  private held: Buffer = Buffer.alloc(0);
  /** How many of the held bytes, from the first, lie in a form found whole already. */
  private heldStars = 0;

  constructor(
    private readonly inner: LogWriter,
    private readonly search: FormSearch,
  ) {}

  get bytes(): number {
    return this.inner.bytes + this.held.length;
  }

  get writable(): boolean {
    return this.inner.writable;
  }

  write(chunk: Buffer): void {
    const data = this.held.length ? Buffer.concat([this.held, chunk]) : chunk;
    const out = data.length - this.search.pending(data);
    const ranges = formsIn(this.search, data, this.heldStars);
    // The first range starts first. The caller's chunk stays as it was: stars go into a copy.
    const masked = ranges.length && ranges[0] < out ? starred(data === chunk ? Buffer.from(data) : data, ranges, out) : data;
    this.inner.write(masked.subarray(0, out));
    // A copy of the bytes as they came: a slice would keep the whole chunk alive, and could be the caller's.
    this.held = out < data.length ? Buffer.from(data.subarray(out)) : EMPTY;
    // A form found whole that goes on into the held bytes: those are stars whatever comes next.
    let reach = out;
    for (let i = 1; i < ranges.length; i += 2) if (ranges[i - 1] < out) reach = Math.max(reach, ranges[i]);
    this.heldStars = reach - out;
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
      const stars = Math.min(this.heldStars, held.length);
      this.forget();
      // What is kept is looked at anew, as if it had just come.
      if (held.length) {
        this.heldStars = stars;
        this.write(held);
      }
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
    this.held = EMPTY;
    this.heldStars = 0;
  }

  /** Writes what was held back: the output it might have continued has ended. */
  private release(): void {
    if (!this.held.length) return;
    const held = this.held;
    if (held.length >= MASKED_PREFIX) held.fill(STAR);
    else starred(held, formsIn(this.search, held, this.heldStars), held.length);
    this.forget();
    this.inner.write(held);
  }
}

/**
 * Where forms lie whole in `data` (and its first `stars` bytes), as start, end pairs. They are
 * all found before any star is written: forms may overlap, and a star must not hide the next one.
 */
function formsIn(search: FormSearch, data: Buffer, stars: number): number[] {
  const ranges: number[] = stars ? [0, stars] : [];
  search.find(data, (start, end) => ranges.push(start, end));
  return ranges;
}

/** `data` with stars over the bytes before `out` that `ranges` cover. */
function starred(data: Buffer, ranges: number[], out: number): Buffer {
  for (let i = 0; i < ranges.length; i += 2) if (ranges[i] < out) data.fill(STAR, ranges[i], Math.min(ranges[i + 1], out));
  return data;
}
