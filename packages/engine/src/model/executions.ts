import type { ExecutionState } from "@benchwright/contract";
import type { Catalog, ParamValue } from "@benchwright/catalog";
import type { VmRecord } from "./machines.js";
import type { StoredMetric } from "./metrics.js";
import type { StepSummary } from "./steps.js";

export type { ExecutionState };

/** What an execution runs: its tool and workload, with their names as the catalog gave them. */
interface TestInfo {
  tool_id: string;
  workload_id: string;
  tool_name: string;
  workload_name: string;
  workload_description: string;
}

/** How often a run measures: `count` times, or until the main metric's CV is at most `until_cv`, from `min` to `max` times. */
export type RepetitionPlan = ({ count: number } | { until_cv: number; min: number; max: number }) & MachinesAsked;

/** On how many of the session's machines it runs (all by default), from which (the first by default). */
export interface MachinesAsked {
  machines?: number;
  first_machine?: number;
}

export interface ExecutionRow {
  id: string;
  session_id: string;
  tool_id: string;
  workload_id: string;
  test: TestInfo;
  /** The workload parameter values its steps use, defaults included. */
  params: Record<string, ParamValue>;
  /** How its runs repeat; null for once. */
  repetitions: RepetitionPlan | null;
  /** Whether its runs sample their machines (model/telemetry.ts); null or absent is on. */
  telemetry?: boolean | null;
  state: ExecutionState;
  created: Date;
  exec_env: { vms: VmRecord[] };
  metrics: StoredMetric[];
  /**
   * The version of a definition written through the API it runs (its steps run that version,
   * whatever was written since), and that version's digest; null for a built-in or a file's.
   */
  definition_version?: number | null;
  definition_digest?: string | null;
  /** The branch and commit of the code it measures, copied onto its points (a CI's job says them); null when its client did not. */
  branch?: string | null;
  commit_id?: string | null;
}

/** A new execution: its environment and metrics come later; no parameters and no repetitions by default. */
export type NewExecution = Omit<ExecutionRow, "exec_env" | "metrics" | "params" | "repetitions"> & {
  params?: ExecutionRow["params"];
  repetitions?: RepetitionPlan | null;
};

export interface ExecutionWithSteps extends ExecutionRow {
  steps: StepSummary[];
  /** Its place in creation order (a bigint, as text): where a page of executions starts. */
  seq: string;
}

/** What chooses an execution's catalogue: the definition version it recorded, else the catalogue as it is now. */
export type ExecutionDefinition = Pick<ExecutionRow, "tool_id" | "definition_version">;

/** The catalogue a step of an execution uses (CatalogSource.forExecution); with no execution, the current one. */
export type CatalogOf = (execution?: ExecutionDefinition) => Catalog;
