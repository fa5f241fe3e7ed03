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

/**
 * The API tokens of the principals. Each request's token is looked up here (by its hash), so a
 * revocation holds at once on every server sharing the database.
 */
export class TokensRepository {
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
    return (await this.db.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE token_sha256 = $1`, [sha256]))[0];
  }

  async get(id: string): Promise<TokenRow | undefined> {
    return (await this.db.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE id = $1`, [id]))[0];
  }

  /** Oldest first, after the `afterSeq` one, at most `limit` (all without). */
  page(afterSeq: string | undefined, limit: number | undefined): Promise<TokenRow[]> {
    const values: unknown[] = [afterSeq ?? "0"];
    if (limit !== undefined) values.push(limit);
    return this.db.query<TokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE seq > $1::bigint ORDER BY seq${limit === undefined ? "" : " LIMIT $2"}`, values);
  }

  /** Revokes the token (once: a second revocation keeps the first time); undefined when there is none. */
  async revoke(id: string): Promise<TokenRow | undefined> {
    // Told to every server with the revocation (TokenWatch), so that they end the token's open streams.
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<TokenRow>(`UPDATE api_tokens SET revoked = coalesce(revoked, now()) WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
      if (row) await tx.query("SELECT pg_notify($1, '')", [TOKENS_CHANNEL]);
      return row;
    });
  }
}
