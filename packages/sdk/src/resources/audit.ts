import { auditQuery, type AuditFilters } from "../audit-filters.js";
import type { CallOptions, ClientContext } from "../client-context.js";
import type { Page, PageOptions } from "../lists.js";
import type { AuditEntry } from "../types.js";

/** Options of `listAuditEntries`: its filters (without them, every entry). */
export type ListAuditEntriesOptions = CallOptions & AuditFilters;

export interface AuditMethods {
  /**
   * The audit log (admins): every state-changing request, newest first, with who sent it, the
   * operation, the path, the status and problem code, and its request id.
   *
   * @example
   * const refused = await bw.listAuditEntries({ principal: "ci", outcome: "failure", since: "2026-11-26" });
   */
  listAuditEntries(options?: ListAuditEntriesOptions): Promise<AuditEntry[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listAuditEntriesPage(options?: ListAuditEntriesOptions & PageOptions): Promise<Page<AuditEntry>>;
}

export function auditMethods({ raw, listInit, fieldsHeader, readPage, itemsOf }: ClientContext): AuditMethods {
  const auditPage = (o?: ListAuditEntriesOptions & PageOptions) =>
    readPage<AuditEntry>(raw.GET("/admin/audit", { params: { header: fieldsHeader(o), query: auditQuery(o) }, ...listInit(o) }));
  return {
    listAuditEntries: (o) => itemsOf(auditPage(o)),
    listAuditEntriesPage: auditPage,
  };
}
