import type { AuditRecord, AuditRow, AuditWhere } from "../model/audit.js";
import type { Db } from "./db.js";
import { auditPage, insertAuditEntry } from "./sql/audit-sql.js";
import { run } from "./sql/sql.js";

/** The audit log: one row per state-changing request, appended by the server when the answer has gone. */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  async append(entry: AuditRecord): Promise<void> {
    await run(this.db, insertAuditEntry(entry));
  }

  /** Newest first, as `where` selects. */
  page(where: AuditWhere): Promise<AuditRow[]> {
    return run<AuditRow>(this.db, auditPage(where));
  }
}
