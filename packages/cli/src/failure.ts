import { BenchwrightProblemError } from "@benchwright/sdk";
import { ExitCode, UsageError } from "./exit-codes.js";
import { Interrupted } from "./interrupt.js";

/**
 * Problems that mean "you named something that is not there": the fix is on the command
 * line, so they exit like a usage error, with the server's list of valid names.
 */
const USAGE_PROBLEMS = new Set(["validation_failed", "unknown_provider", "unknown_service_type", "unknown_tool", "unknown_workload", "not_found"]);
const STEP_PROBLEMS = new Set(["step_failed", "step_timeout"]);

export interface Failure {
  exitCode: number;
  message: string;
}

/** The exit code and the one-paragraph explanation of an error thrown by a command. */
export function failureOf(error: unknown, url: string): Failure {
  if (error instanceof Interrupted) return { exitCode: error.exitCode, message: `interrupted (${error.signal})` };
  if (error instanceof UsageError) return { exitCode: ExitCode.usage, message: error.message };
  if (error instanceof BenchwrightProblemError) {
    const p = error.problem;
    const lines = [`${p.title}${p.detail ? `: ${p.detail}` : ""} (${p.code}, HTTP ${p.status})`];
    for (const e of p.errors ?? []) lines.push(`  ${e.path}: ${e.message}`);
    if (p.choices) lines.push(`  choices: ${p.choices.join(", ") || "none"}`);
    // The server cannot know how this command takes a token: say it here.
    if (p.code === "unauthorized") lines.push("  this server needs an API token: pass --token <token> or set BENCHWRIGHT_API_TOKEN");
    const exitCode = STEP_PROBLEMS.has(p.code) ? ExitCode.stepFailed : USAGE_PROBLEMS.has(p.code) ? ExitCode.usage : ExitCode.api;
    return { exitCode, message: lines.join("\n") };
  }
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  // Node's fetch says only "fetch failed"; the reason is in its cause.
  if (error instanceof TypeError && error.message === "fetch failed") {
    return { exitCode: ExitCode.api, message: `cannot reach the server at ${url}: ${cause?.code ?? cause?.message ?? "fetch failed"}` };
  }
  return { exitCode: ExitCode.api, message: error instanceof Error ? error.message : String(error) };
}
