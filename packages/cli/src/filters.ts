import type { ExecutionFilters } from "@benchwright/sdk";
import { UsageError } from "./exit-codes.js";

/** The filter options of `ls` and `export`, as commander hands them over. */
export interface FilterOptions {
  tool?: string;
  workload?: string;
  provider?: string;
  state?: string;
  since?: string;
  session?: string;
}

/** `--state completed,run_failed`: the server checks the names and lists the valid ones. */
export function statesOf(text: string | undefined): string[] | undefined {
  return text === undefined
    ? undefined
    : text
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
}

export function executionFilters(o: FilterOptions): ExecutionFilters {
  return {
    tool: o.tool,
    workload: o.workload,
    provider: o.provider,
    sessionId: o.session,
    createdSince: o.since,
    state: statesOf(o.state) as ExecutionFilters["state"],
  };
}

export function positiveInteger(text: string, what: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${what} takes a whole number from 1, not '${text}'`);
  return n;
}
