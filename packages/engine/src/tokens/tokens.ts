import { createHash, randomBytes, randomUUID } from "node:crypto";
import { BenchwrightError } from "../errors.js";
import { RESERVED_PRINCIPAL_MESSAGE, RESERVED_PRINCIPALS } from "../model/principals.js";
import { tokenCursor, tokenSeqOf } from "../lists/cursor.js";
import { pageOf, seqPageOf, type Page, type SeqPageQuery } from "../lists/list-query.js";
import type { TokenRow, TokensRepository } from "../store/tokens-repository.js";
import { formatTimestamp } from "../time.js";
import type { WatchedToken } from "./token-watch.js";

export type TokenRole = "viewer" | "operator" | "admin";

/** A token's record as the API shows it; `token` only in the creation's answer. */
export interface TokenView {
  id: string;
  principal: string;
  role: TokenRole;
  name: string | null;
  created: string;
  expires: string | null;
  revoked: string | null;
  token?: string;
}

export interface NewToken {
  principal: string;
  role: TokenRole;
  name?: string;
  /** RFC 3339; never expires when unset. */
  expires?: string;
}

/** Why a token sent with a request does not name a principal. */
export type TokenRefusal = "unknown" | "expired" | "revoked";

/**
 * The principals' API tokens: made (the token shown once, its SHA-256 kept), listed, revoked,
 * and looked up for each request: in the database once, then in what the repository keeps,
 * which a revocation on any server empties, so a revocation holds on every server at once.
 */
export class Tokens {
  constructor(private readonly repository: TokensRepository) {}

  /** Refuses (400 validation_failed) a reserved principal and an `expires` that is not after `now`. */
  async create(request: NewToken, now = new Date()): Promise<TokenView> {
    if (RESERVED_PRINCIPALS.includes(request.principal)) throw invalid("/body/principal", RESERVED_PRINCIPAL_MESSAGE);
    const expires = request.expires === undefined ? undefined : new Date(request.expires);
    if (expires && Number.isNaN(expires.getTime())) throw invalid("/body/expires", "is not a time");
    // A token that is refused from its first use is a mistake (a date in the past, a wrong year), never a wish.
    if (expires && expires.getTime() <= now.getTime()) throw invalid("/body/expires", `is not in the future (it is ${formatTimestamp(now)} UTC now)`);
    // 32 random bytes: a hash without salt is enough, nobody guesses such a token.
    const token = `bw_${randomBytes(32).toString("base64url")}`;
    const row = await this.repository.insert({
      id: randomUUID(),
      principal: request.principal,
      role: request.role,
      name: request.name,
      sha256: tokenHash(token),
      expires,
    });
    return { ...tokenView(row), token };
  }

  async list(query: SeqPageQuery = {}): Promise<Page<TokenView>> {
    const { afterSeq, limit } = seqPageOf(query, tokenSeqOf);
    const rows = await this.repository.page(afterSeq, limit);
    const page = pageOf(rows, query.limit, (last) => tokenCursor(last.seq));
    return { items: page.items.map(tokenView), next: page.next };
  }

  async get(id: string): Promise<TokenView> {
    const row = await this.repository.get(id);
    if (!row) throw new BenchwrightError("not_found", `No token ${id}`);
    return tokenView(row);
  }

  async revoke(id: string): Promise<TokenView> {
    const row = await this.repository.revoke(id);
    if (!row) throw new BenchwrightError("not_found", `No token ${id}`);
    return tokenView(row);
  }

  /** The principal a request's bearer token names (and the token, whose open streams end with it), or why it names none. */
  async principalOf(token: string, now = new Date()): Promise<{ id: string; role: TokenRole; token: WatchedToken } | TokenRefusal> {
    const row = await this.repository.byHash(tokenHash(token));
    if (!row) return "unknown";
    if (row.revoked) return "revoked";
    if (row.expires && row.expires.getTime() <= now.getTime()) return "expired";
    return { id: row.principal, role: row.role as TokenRole, token: { id: row.id, expires: row.expires ? new Date(row.expires) : null } };
  }
}

function invalid(path: string, message: string): BenchwrightError {
  return new BenchwrightError("validation_failed", `${path} ${message}`, { errors: [{ path, message }] });
}

function tokenHash(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

function tokenView(row: TokenRow): TokenView {
  const time = (d: Date | null) => (d ? formatTimestamp(new Date(d)) : null);
  return {
    id: row.id,
    principal: row.principal,
    role: row.role as TokenRole,
    name: row.name,
    created: formatTimestamp(new Date(row.created)),
    expires: time(row.expires),
    revoked: time(row.revoked),
  };
}
