/** One state-changing request as the audit log records it: no body, no header, nothing secret. */
export interface AuditRecord {
  principal: string;
  /** The contract's operationId; null for a path or method that is no operation. */
  operation: string | null;
  method: string;
  /** The path with its ids, without the query. */
  path: string;
  status: number;
  /** The problem's code when the answer was a problem. */
  code: string | null;
  requestId: string;
}

/** A row of `audit_log`: the record as written, `at` already as the contract writes times (UTC, microseconds). */
export type AuditRow = Omit<AuditRecord, "requestId"> & { seq: string; at: string; request_id: string };

/** Which entries an audit list selects (every condition given must hold), newest first, before `beforeSeq`. */
export interface AuditWhere {
  principal?: string;
  operation?: string;
  since?: Date;
  until?: Date;
  outcome?: "success" | "failure";
  beforeSeq?: string;
  limit?: number;
}
