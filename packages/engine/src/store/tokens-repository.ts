import type { Db } from "./db.js";

/** A principal's API token as stored: its sha256 only, never the token. */
export interface TokenRow {
  id: string;
  principal: string;
  role: string;
  name: string | null;
  created: Date;
  expires: Date | null;
  revoked: Date | null;
  seq: string;
}

/** The channel a revocation is told on, to every server sharing the database (TokenWatch listens). */
export const TOKENS_CHANNEL = "benchwright_tokens";

const COLUMNS = "id, principal, role, name, created, expires, revoked, seq::text AS seq";

/** How many tokens' rows a server keeps between requests; the one looked up longest ago goes first. */
const CACHED_TOKENS = 1_000;

/**
 * The longest a kept row is used: a bound for the time a revocation could go unseen while the
 * listening connection is down (it empties the cache when it is back, but cannot say when it dropped).
 */
const CACHED_MS = 10_000;

/** The longest a revocation waits to hear its own notification back (a listening connection down meanwhile). */
const ECHO_MS = 1_000;

/**
 * The API tokens of the principals. Each request's token is looked up here (by its hash). The
 * rows found are kept for the next requests (a lookup a request, paid once), and every
 * revocation, on any server sharing the database, empties what each server keeps: it NOTIFYs
 * TOKENS_CHANNEL, which each listens on, so a revocation holds at once everywhere. Nothing is
 * kept until this process listens, nor where it cannot (a transaction's Db).
 */
export class TokensRepository {
  readonly #cache = new Map<string, { row: TokenRow; at: number }>();
  /** Counts the revocations told: a row read while one came may be the old one, and is not kept. */
  #revocations = 0;
  #listening: Promise<unknown> | undefined;
  /** Whether a revocation on any server reaches this one now. */
  #hears = false;
  /** Revocations made here that wait to hear their own notification back. */
  readonly #echoes = new Set<() => void>();

  constructor(private readonly db: Db) {}

  async insert(token: { id: string; principal: string; role: string; name?: string; sha256: Buffer; expires?: Date }): Promise<TokenRow> {
    const [row] = await this.db.query<TokenRow>(
      `INSERT INTO api_tokens (id, principal, role, name, token_sha256, expires) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [token.id, token.principal, token.role, token.name ?? null, token.sha256, token.expires ?? null],
    );
    return row!;
  }

  /** The token whose hash this is, live or not (the caller tells expired and revoked apart). */
  async byHash(sha256: Buffer): Promise<TokenRow | undefined> {
    this.#listen();
    const key = sha256.toString("hex");
    const kept = this.#cache.get(key);
    if (kept && this.#hears) {
      // A revocation told an instant ago is heard before the kept row answers: the event loop
      // looks at its connections (the listening one too) between two immediates.
      for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
      if (this.#cache.get(key) === kept && Date.now() - kept.at < CACHED_MS) return kept.row;
    }
    const revocations = this.#revocations;
    const row = (await this.db.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE token_sha256 = $1`, [sha256]))[0];
    // An unknown token is not kept: it may be made on another server the next instant.
    if (row && this.#hears && revocations === this.#revocations) {
      this.#cache.delete(key);
      this.#cache.set(key, { row, at: Date.now() });
      if (this.#cache.size > CACHED_TOKENS) this.#cache.delete(this.#cache.keys().next().value!);
    }
    return row;
  }

  /** Empties the kept rows: a token was revoked, here or on another server. */
  #revoked(): void {
    this.#revocations++;
    this.#cache.clear();
  }

  /** Resolves once this server hears a notification (at most `maxMs` later). */
  #echo(maxMs: number): { heard: Promise<void> } {
    let done!: () => void;
    const heard = new Promise<void>((resolve) => (done = resolve));
    const timer = setTimeout(() => finish(), maxMs);
    const finish = () => {
      clearTimeout(timer);
      this.#echoes.delete(finish);
      done();
    };
    this.#echoes.add(finish);
    return { heard };
  }

  #listen(): void {
    if (this.#listening || !this.db.listen) return;
    // PostgreSQL's listener calls once it listens (and after each reconnection); PGlite's listens once `listen` resolves.
    this.#listening = this.db
      .listen(TOKENS_CHANNEL, () => {
        this.#revoked();
        this.#hears = true;
        for (const heard of [...this.#echoes]) heard();
      })
      .then(
        () => {
          if (this.db.kind === "pglite") this.#hears = true;
        },
        () => {
          // Tried again at the next lookup; nothing is kept meanwhile.
          this.#listening = undefined;
        },
      );
  }

  async get(id: string): Promise<TokenRow | undefined> {
    return (await this.db.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE id = $1`, [id]))[0];
  }

  /** Oldest first, after the `afterSeq` one, at most `limit` (all without). */
  page(afterSeq: string | undefined, limit: number | undefined): Promise<TokenRow[]> {
    const values: unknown[] = [afterSeq ?? "0"];
    if (limit !== undefined) values.push(limit);
    return this.db.query<TokenRow>(
      `SELECT ${COLUMNS} FROM api_tokens WHERE seq > $1::bigint ORDER BY api_tokens.seq${limit === undefined ? "" : " LIMIT $2"}`,
      values,
    );
  }

  /** Revokes the token (once: a second revocation keeps the first time); undefined when there is none. */
  async revoke(id: string): Promise<TokenRow | undefined> {
    // Told to every server with the revocation (TokenWatch, and what each keeps), so that they
    // end the token's open streams and refuse it from their next request.
    this.#listen();
    // Once this server hears revocations (its listening connection made), its own is heard back.
    await this.#listening;
    if (!this.#hears && this.#listening) await this.#echo(ECHO_MS).heard;
    const echo = this.#hears ? this.#echo(ECHO_MS) : undefined;
    const revoked = await this.db.transaction(async (tx) => {
      const [row] = await tx.query<TokenRow>(`UPDATE api_tokens SET revoked = coalesce(revoked, now()) WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
      if (row) await tx.query("SELECT pg_notify($1, '')", [TOKENS_CHANNEL]);
      return row;
    });
    // Here at once; and the answer waits until the notification came back here, as it comes to
    // every server listening, so that the others have been told it when the revocation is answered.
    this.#revoked();
    if (revoked) await echo?.heard;
    return revoked;
  }
}
