import type { Db } from "../store/db.js";
import type { StepKey } from "../model/steps.js";

/** Records in the attempt's row how many bytes its log holds. */
export async function recordLogBytes(db: Db, key: StepKey, bytes: number): Promise<void> {
  await db.query("UPDATE steps SET log_bytes = $4 WHERE execution_id = $1 AND step = $2 AND attempt = $3", [key.execution_id, key.step, key.attempt, bytes]);
}
