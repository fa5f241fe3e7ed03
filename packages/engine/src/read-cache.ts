import type { WriteClock } from "./store/write-clock.js";

/**
 * Read views (a session, the list of executions...) kept while the tables they are made of
 * have not changed, on the write counts of the embedded database (see WriteClock). On the
 * embedded PGlite every query costs about 0.3 ms of this process's only thread, more than
 * the rest of a request. Without a clock (PostgreSQL, shared with other processes that
 * write behind this one's back) nothing is kept and every read goes to the database.
 *
 * Values are frozen when kept: every request gets the same objects, so none may change them.
 */
export class ReadCache {
  private version = NaN;
  private readonly entries = new Map<string, Promise<unknown>>();

  constructor(
    private readonly clock: () => WriteClock | undefined,
    /** The tables every value is made of. */
    private readonly tables: readonly string[],
    private readonly maxEntries = 1_000,
  ) {}

  /** The value kept under `key`, or what `compute` gives (kept if no table changed meanwhile). */
  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const clock = this.clock();
    if (!clock) return compute();
    const version = clock.version(this.tables);
    if (version !== this.version) {
      this.entries.clear();
      this.version = version;
    }
    const kept = this.entries.get(key) as Promise<T> | undefined;
    if (kept) return kept;
    // Kept as a promise: requests that arrive while it is computed share the one query.
    const value = compute().then(deepFreeze);
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, value);
    // A failure (not found, the database away) is never kept.
    value.catch(() => {
      if (this.entries.get(key) === value) this.entries.delete(key);
    });
    return value;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
