import type { AuditEntry } from "@benchwright/contract";
import type { AuditRow } from "../model/audit.js";
import { auditCursor } from "../lists/cursor.js";
import { type AuditListQuery, auditWhereOf, type Page, pageOf } from "../lists/list-query.js";
import type { AuditRepository } from "../store/audit-repository.js";

/** An audit row as the API shows it. */
function auditEntryView(row: AuditRow): AuditEntry {
  return {
    at: row.at,
    principal: row.principal,
    operation: row.operation,
    method: row.method,
    path: row.path,
    status: row.status,
    code: row.code,
    outcome: row.status < 400 ? "success" : "failure",
    request_id: row.request_id,
  };
}

/** The audit log's entries that match the query's filters, newest first (a page of them with its `limit`). */
export async function auditPage(audit: AuditRepository, query: AuditListQuery): Promise<Page<AuditEntry>> {
  const page = pageOf(await audit.page(auditWhereOf(query)), query.limit, (last) => auditCursor(last.seq));
  return { items: page.items.map(auditEntryView), next: page.next };
}
