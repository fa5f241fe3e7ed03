import { pageQuery, type PageOptions } from "./lists.js";

/** The filters of `listAuditEntries` and `listAuditEntriesPage` (every one given must hold). */
export interface AuditFilters {
  /** Only the requests of this principal (`bootstrap`: the server's own token, or none). */
  principal?: string;
  /** Only the requests of this operation (its operationId, such as `createSession`). */
  operation?: string;
  /** Only the requests answered at or after this time (ISO 8601). */
  since?: string;
  /** Only the requests answered before this time (ISO 8601). */
  until?: string;
  /** Only the requests that succeeded, or only those that failed (a 4xx or 5xx). */
  outcome?: "success" | "failure";
}

/** The audit filters and page as the contract's query parameters. */
export function auditQuery(options: AuditFilters & PageOptions = {}) {
  const { principal, operation, since, until, outcome } = options;
  return { principal, operation, since, until, outcome, ...pageQuery(options) };
}
