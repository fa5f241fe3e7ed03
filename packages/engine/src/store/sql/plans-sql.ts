import type { NewPlan } from "../../model/plans.js";
import { json, type Sql } from "./sql.js";

const PLAN_COLUMNS =
  "id, seq::text AS seq, created, body, inline_sealed, schedule, schedule_paused, next_run_at, created_by, schedule_skipped, schedule_last_skipped";

export function insertPlan(row: NewPlan): Sql {
  return {
    text: "INSERT INTO plans (id, created, body, inline_sealed, schedule, next_run_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    values: [row.id, row.created, json(row.body), row.inline_sealed, json(row.schedule ?? null), row.next_run_at ?? null, row.created_by ?? null],
  };
}

export function planById(id: string): Sql {
  return { text: `SELECT ${PLAN_COLUMNS} FROM plans WHERE id = $1`, values: [id] };
}

/** Plans in creation order, after the `afterSeq` one, at most `limit` of them (all without). */
export function plansPage(afterSeq: string | undefined, limit: number | undefined): Sql {
  return {
    text: `SELECT ${PLAN_COLUMNS} FROM plans
      WHERE ($1::bigint IS NULL OR seq > $1::bigint) ORDER BY plans.seq LIMIT $2`,
    values: [afterSeq ?? null, limit ?? null],
  };
}

/** Deletes a plan that has no run still going (its runs' records go with it); answers it when deleted. */
export function deletePlanById(id: string): Sql {
  return {
    text: `DELETE FROM plans p WHERE p.id = $1
       AND NOT EXISTS (SELECT 1 FROM plan_runs r WHERE r.plan_id = p.id AND r.state IN ('pending', 'running', 'cancelling')) RETURNING id`,
    values: [id],
  };
}
