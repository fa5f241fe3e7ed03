/** No form is shorter: a position can begin a form only if its next 4 bytes begin one. */
const MIN_FORM_BYTES = 4;

/** 2^20 bits of hashed 4-byte strings: with thousands of them, one lookup in hundreds passes by chance. */
const HASH_BITS = 20;

/** The most positions skipped between two looked up: more would only fill the bitmap. */
const MAX_STRIDE = 16;

/** A form, and an offset in it whose 4 bytes are looked up. */
interface Sample {
  form: Uint8Array;
  at: number;
}

/**
 * Many byte strings (the forms of a step's secrets: a private key's lines with their
 * escapings and encodings make hundreds) looked for at once, in one pass over the bytes
 * whatever their number. When the shortest form is `stride + 3` bytes long, only every
 * `stride`-th position of the bytes is looked at: a form lying anywhere has, at one of its
 * first `stride` offsets, 4 bytes at such a position. Each costs one lookup of its 4 bytes
 * in a bitmap of the forms' hashed 4-byte strings at those offsets; only one that passes is
 * compared with the forms. A private key's forms are looked for every 13 bytes, a 4-character
 * password's at every byte. This keeps up with the transport (hundreds of MiB/s in
 * JavaScript), where an automaton stepped a byte at a time through a Map did not.
 */
export class FormSearch {
  readonly #stride: number;
  /** The forms' 4 bytes at offsets 0 to stride - 1, hashed. */
  readonly #samples = new Int32Array(1 << (HASH_BITS - 5));
  readonly #bySample = new Map<number, Sample[]>();
  /** The forms' first 4 bytes, hashed, and the forms by them (big-endian), longest first. */
  readonly #starts = new Int32Array(1 << (HASH_BITS - 5));
  readonly #byStart = new Map<number, Uint8Array[]>();
  /** The forms' starts of 1 to 3 bytes, as `length * 2^24 + bytes`. */
  readonly #shortStarts = new Set<number>();
  /** The longest form's length. */
  readonly longest: number = 0;

  constructor(forms: Iterable<Uint8Array>) {
    const all = [...forms];
    let shortest = Number.POSITIVE_INFINITY;
    for (const form of all) {
      if (form.length < MIN_FORM_BYTES) throw new RangeError(`A form must be at least ${MIN_FORM_BYTES} bytes long`);
      const start = read4(form, 0);
      setBit(this.#starts, hash(start));
      const same = this.#byStart.get(start);
      if (same) same.push(form);
      else this.#byStart.set(start, [form]);
      for (let n = 1; n < MIN_FORM_BYTES; n++) this.#shortStarts.add(shortKey(form, 0, n));
      this.longest = Math.max(this.longest, form.length);
      shortest = Math.min(shortest, form.length);
    }
    for (const same of this.#byStart.values()) same.sort((a, b) => b.length - a.length);
    this.#stride = Math.min(MAX_STRIDE, shortest - MIN_FORM_BYTES + 1);
    for (const form of all) {
      for (let at = 0; at < this.#stride; at++) {
        const key = read4(form, at);
        setBit(this.#samples, hash(key));
        const same = this.#bySample.get(key);
        if (same) same.push({ form, at });
        else this.#bySample.set(key, [{ form, at }]);
      }
    }
  }

  /** Whether there is anything to look for. */
  get empty(): boolean {
    return this.longest === 0;
  }

  /**
   * Calls `found(start, end)` for every position of `data` where a form lies whole, with the
   * longest form there (shorter ones there lie inside it), in increasing `start`.
   */
  find(data: Uint8Array, found: (start: number, end: number) => void): void {
    const n = data.length;
    if (this.empty) return;
    const stride = this.#stride;
    const bitmap = this.#samples;
    let hits: number[] | undefined;
    for (let q = 0; q + MIN_FORM_BYTES <= n; q += stride) {
      const key = (data[q] << 24) | (data[q + 1] << 16) | (data[q + 2] << 8) | data[q + 3];
      const h = Math.imul(key, 0x9e3779b1) >>> (32 - HASH_BITS);
      if (((bitmap[h >>> 5] >>> (h & 31)) & 1) === 0) continue;
      for (const { form, at } of this.#bySample.get(key >>> 0) ?? []) {
        const p = q - at;
        if (p >= 0 && p + form.length <= n && startsWith(data, p, form, form.length)) (hits ??= []).push(p, p + form.length);
      }
    }
    if (!hits) return;
    // Found by the sample they hold, not in the order of their starts: sorted, the longest at each start.
    const pairs: Array<[number, number]> = [];
    for (let i = 0; i < hits.length; i += 2) pairs.push([hits[i], hits[i + 1]]);
    pairs.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    for (let i = 0; i < pairs.length; i++) if (i === 0 || pairs[i][0] !== pairs[i - 1][0]) found(pairs[i][0], pairs[i][1]);
  }

  /**
   * How many of the last bytes of `data` may still begin a form (they are its start, cut
   * before its end): the longest such end, so that nothing before it can be part of a form
   * that the next bytes complete.
   */
  pending(data: Uint8Array): number {
    const n = data.length;
    const from = Math.max(0, n - this.longest + 1);
    // An end of stride + 3 bytes or more holds a looked-up position: only those are looked at.
    const stride = this.#stride;
    const bitmap = this.#samples;
    let longest = 0;
    for (let q = from - (from % stride); q + MIN_FORM_BYTES <= n; q += stride) {
      const key = (data[q] << 24) | (data[q + 1] << 16) | (data[q + 2] << 8) | data[q + 3];
      const h = Math.imul(key, 0x9e3779b1) >>> (32 - HASH_BITS);
      if (((bitmap[h >>> 5] >>> (h & 31)) & 1) === 0) continue;
      for (const { form, at } of this.#bySample.get(key >>> 0) ?? []) {
        const p = q - at;
        const left = n - p;
        if (p >= from && left > longest && left >= stride + MIN_FORM_BYTES - 1 && form.length > left && startsWith(data, p, form, left)) longest = left;
      }
    }
    if (longest) return longest;
    // Shorter ends, at every position.
    for (let i = Math.max(from, n - stride - MIN_FORM_BYTES + 2); i < n; i++) {
      const left = n - i;
      if (left < MIN_FORM_BYTES) {
        if (this.#shortStarts.has(shortKey(data, i, left))) return left;
        continue;
      }
      const key = read4(data, i);
      const h = hash(key);
      if (((this.#starts[h >>> 5] >>> (h & 31)) & 1) === 0) continue;
      if (this.#byStart.get(key)?.some((form) => form.length > left && startsWith(data, i, form, left))) return left;
    }
    return 0;
  }
}

function read4(bytes: Uint8Array, at: number): number {
  return ((bytes[at] << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3]) >>> 0;
}

function hash(key: number): number {
  return Math.imul(key | 0, 0x9e3779b1) >>> (32 - HASH_BITS);
}

function setBit(bitmap: Int32Array, bit: number): void {
  bitmap[bit >>> 5] |= 1 << (bit & 31);
}

function shortKey(bytes: Uint8Array, at: number, length: number): number {
  let value = 0;
  for (let k = 0; k < length; k++) value = value * 256 + bytes[at + k];
  return length * 2 ** 24 + value;
}

/** Whether `data` holds the first `length` bytes of `form` at `at`. */
function startsWith(data: Uint8Array, at: number, form: Uint8Array, length: number): boolean {
  for (let k = 0; k < length; k++) if (data[at + k] !== form[k]) return false;
  return true;
}
