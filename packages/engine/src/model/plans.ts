import type { Plan, PlanScheduleCreate as PlanScheduleCreateOfContract } from "@benchwright/contract";

/** When a tick found late (a server was down) is not run alone: skipped, or all of them run once together. */
export type MissedTicks = "skip" | "run_once";

/** A plan's schedule as stored (`plans.schedule`), its defaults filled in. */
export interface PlanSchedule {
  /** 5 fields, or 6 with seconds first. */
  cron: string;
  /** IANA name the cron's fields are read in. */
  timezone: string;
  missed: MissedTicks;
  /** What a tick does while a run of the plan has not ended: skipped (counted), or a run beside it. Absent in schedules stored before it existed: `skip`. */
  overlap?: "skip" | "allow";
}

/** A schedule as a plan's creation may give it. */
export type PlanScheduleCreate = PlanScheduleCreateOfContract;

/** A plan's view, with its schedule. */
export type PlanView = Plan;

/** A stored plan as its view shows it, without its id, creation time and schedule (the row's columns). */
export type PlanBody = Omit<Plan, "id" | "created" | "schedule">;

/**
 * A row of `plans`: the plan's view as JSON, and its inline targets' configurations sealed (null
 * when it has none); its schedule, whether paused, and its next tick (null: none, or paused).
 */
export interface PlanRow {
  id: string;
  seq: string;
  created: Date;
  body: PlanBody;
  inline_sealed: string | null;
  schedule: PlanSchedule | null;
  schedule_paused: boolean;
  next_run_at: Date | null;
  /** Ticks skipped because a run of the plan had not ended, and the latest of them. */
  schedule_skipped: number;
  schedule_last_skipped: Date | null;
  /** The principal who made it (null for plans from before this was recorded): its scheduled runs are that principal's. */
  created_by: string | null;
}

/** A plan as it is first stored: not paused; a schedule's first tick given with it. */
export type NewPlan = Omit<PlanRow, "seq" | "schedule" | "schedule_paused" | "next_run_at" | "created_by" | "schedule_skipped" | "schedule_last_skipped"> &
  Partial<Pick<PlanRow, "schedule" | "next_run_at" | "created_by">>;
