import type { AuditRecord, AuditWhere } from "../../model/audit.js";
import { SqlParams } from "../list-where.js";
import type { Sql } from "./sql.js";

const AUDIT_COLUMNS = `seq::text AS seq, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at, principal, operation, method, path, status, code, request_id`;

export function insertAuditEntry(entry: AuditRecord): Sql {
  return {
    text: "INSERT INTO audit_log (principal, operation, method, path, status, code, request_id) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    values: [entry.principal, entry.operation, entry.method, entry.path, entry.status, entry.code, entry.requestId],
  };
}

/**
 * The entries `where` selects, newest first (by seq, the order they were written in). The ORDER BY
 * names the table's column: a bare `seq` is the output's `seq::text`, whose order is text's
 * ("9" after "10"), and pages crossed each other (here and in every list that shows `seq` as text).
 */
export function auditPage(where: AuditWhere): Sql {
  const params = new SqlParams();
  const conditions: string[] = [];
  if (where.principal !== undefined) conditions.push(`principal = ${params.add(where.principal)}`);
  if (where.operation !== undefined) conditions.push(`operation = ${params.add(where.operation)}`);
  if (where.since) conditions.push(`at >= ${params.add(where.since)}`);
  if (where.until) conditions.push(`at < ${params.add(where.until)}`);
  if (where.outcome === "success") conditions.push("status < 400");
  if (where.outcome === "failure") conditions.push("status >= 400");
  if (where.beforeSeq !== undefined) conditions.push(`seq < ${params.add(where.beforeSeq)}::bigint`);
  const filter = conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
  const limit = where.limit === undefined ? "" : ` LIMIT ${params.add(where.limit)}`;
  return { text: `SELECT ${AUDIT_COLUMNS} FROM audit_log ${filter} ORDER BY audit_log.seq DESC${limit}`, values: params.values };
}
