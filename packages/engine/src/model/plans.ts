import type { Plan } from "@benchwright/contract";

/** A stored plan as its view shows it, without its id and creation time (the row's columns). */
export type PlanBody = Omit<Plan, "id" | "created">;

/** A row of `plans`: the plan's view as JSON, and its inline targets' configurations sealed (null when it has none). */
export interface PlanRow {
  id: string;
  seq: string;
  created: Date;
  body: PlanBody;
  inline_sealed: string | null;
}
