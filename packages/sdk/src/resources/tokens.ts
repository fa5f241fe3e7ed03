import type { CallOptions, ClientContext, RequestOptions } from "../client-context.js";
import { listQuery, type Page, type PageOptions } from "../lists.js";
import type { Token, TokenCreate } from "../types.js";

export interface TokensMethods {
  /**
   * An admin's: makes an API token for a principal, with a role (`viewer`, `operator`, `admin`) and
   * an optional expiry. The answer holds the `token`, this once; the server keeps its hash.
   *
   * @example
   * const { token } = await bw.createToken({ principal: "ci", role: "operator", expires: "2027-02-24T00:00:00Z" });
   */
  createToken(body: TokenCreate, options?: CallOptions): Promise<Token>;
  /** An admin's: every token's record (never the token), oldest first, revoked and expired ones too. */
  listTokens(options?: CallOptions): Promise<Token[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listTokensPage(options?: CallOptions & PageOptions): Promise<Page<Token>>;
  getToken(tokenId: string, options?: CallOptions): Promise<Token>;
  /** An admin's: revokes the token, at once on every server. */
  revokeToken(tokenId: string, options?: RequestOptions): Promise<void>;
}

export function tokensMethods({ raw, unwrap, init, listInit, fieldsHeader, readPage, itemsOf }: ClientContext): TokensMethods {
  const tokensPage = (o?: CallOptions & PageOptions) =>
    readPage<Token>(raw.GET("/admin/tokens/", { params: { header: fieldsHeader(o), query: listQuery(o) }, ...listInit(o) }));
  return {
    createToken: (body, o) => unwrap(raw.POST("/admin/tokens/", { body, params: { header: fieldsHeader(o) }, ...init(o) })),
    listTokens: (o) => itemsOf(tokensPage(o)),
    listTokensPage: tokensPage,
    getToken: (tokenId, o) => unwrap(raw.GET("/admin/tokens/{token_id}", { params: { path: { token_id: tokenId }, header: fieldsHeader(o) }, ...init(o) })),
    revokeToken: async (tokenId, o) => {
      await unwrap(raw.DELETE("/admin/tokens/{token_id}", { params: { path: { token_id: tokenId } }, ...init(o) }));
    },
  };
}
