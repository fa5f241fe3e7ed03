import type { Migration } from "./migration.js";

export const migration: Migration = {
  id: 9,
  name: "schedules: a plan's cron and its next firing; a run's trigger and the tick it stands for",
  // next_run_at is the schedulers' one shared clock hand: whoever moves it from the value it
  // read (a conditional UPDATE) fires the tick. The unique index is the second guard: one run
  // per tick of a plan, however many servers share the database.
  sql: `
    ALTER TABLE plans ADD COLUMN schedule jsonb, ADD COLUMN schedule_paused boolean NOT NULL DEFAULT false, ADD COLUMN next_run_at timestamptz;
    ALTER TABLE plan_runs ADD COLUMN trigger text NOT NULL DEFAULT 'api', ADD COLUMN scheduled_for timestamptz;
    CREATE UNIQUE INDEX plan_runs_tick ON plan_runs(plan_id, scheduled_for) WHERE scheduled_for IS NOT NULL;
    CREATE INDEX plans_due ON plans(next_run_at) WHERE schedule IS NOT NULL AND NOT schedule_paused;
  `,
};
