import type { StepKind } from "./model/steps.js";

type LogLevel = "debug" | "info" | "warn" | "error";

/**
 * What an engine line concerns, for a structured log: an operator filters a session's or a
 * step's lines by these instead of parsing the text. Every field is optional.
 */
export interface LogFields {
  /** `info` when unset. */
  level?: LogLevel;
  session_id?: string;
  execution_id?: string;
  step?: StepKind;
  attempt?: number;
}

/**
 * The engine's logger: a line for the operator (never holding a credential) and what it
 * concerns. A plain `(line) => void` is one too: it just drops the fields.
 */
export type EngineLog = (line: string, fields?: LogFields) => void;

/** The fields of one step attempt's lines. */
export function stepFields(step: { execution_id: string; step: StepKind; attempt: number }, sessionId?: string): LogFields {
  return { ...(sessionId ? { session_id: sessionId } : {}), execution_id: step.execution_id, step: step.step, attempt: step.attempt };
}
