import type { AuditEntry } from "@benchwright/contract";
import type { AuditRow } from "../model/audit.js";

/** An audit row as the API shows it. */
export function auditEntryView(row: AuditRow): AuditEntry {
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
