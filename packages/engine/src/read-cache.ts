import { CommitProbe } from "./store/commit-probe.js";
import type { WriteClock } from "./store/write-clock.js";

/**
 * Read views (a session, the list of executions...) kept while the tables they are made of
 * have not changed. On the embedded database it knows that from its write counts (see
 * WriteClock), without asking it: there every query costs about 0.3 ms of this process's only
 * thread, more than the rest of a request. On PostgreSQL, shared with other processes that
 * write behind this one's back, it asks the server whether any transaction committed since the
 * view was read (see CommitProbe): one small round trip, shared by the requests that arrive
 * together, instead of the view's queries. Without either, nothing is kept and every read goes
 * to the database.
 *
 * Values are frozen when kept: every request gets the same objects, so none may change them.
 */
export class ReadCache {
  private version: number | string = NaN;
  private readonly entries = new Map<string, Promise<unknown>>();

  constructor(
    private readonly source: () => WriteClock | CommitProbe | undefined,
    /** The tables every value is made of (a CommitProbe knows of commits, not of tables). */
    private readonly tables: readonly string[],
    private readonly maxEntries = 1_000,
  ) {}

  /** The value kept under `key`, or what `compute` gives (kept if no table changed meanwhile). */
  get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const source = this.source();
    if (!source) return compute();
    // The token is taken before the value is computed: a value read after a commit it does not
    // show is kept under a token older than that commit, which the next token never equals.
    if (source instanceof CommitProbe) return source.token().then((token) => this.lookup(token, key, compute));
    return this.lookup(source.version(this.tables), key, compute);
  }

  private lookup<T>(version: number | string, key: string, compute: () => Promise<T>): Promise<T> {
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
