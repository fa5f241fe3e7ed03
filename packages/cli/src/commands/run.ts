import type { Execution, ExecutionCreate, Metric, Session, StepAttempt } from "@benchwright/sdk";
import { note, print, printJson, type Context } from "../context.js";
import { ExitCode, UsageError } from "../exit-codes.js";
import { failureOf } from "../failure.js";
import { Interrupted, watchInterrupts } from "../interrupt.js";
import { parseParamArgs, typeParams } from "../params.js";
import { createProgress, type Progress } from "../progress.js";
import { logTail, runStep } from "../step.js";
import { repetitionPlan, type RepetitionOptions } from "../repetitions.js";
import { metricsTable } from "../tables.js";
import { ciEnvOf } from "../gate/ci-env.js";

export interface RunOptions extends RepetitionOptions {
  provider: string;
  service?: string;
  param: string[];
  follow?: boolean;
  keep?: boolean;
  share?: boolean;
}

/** What `run --json` prints. */
interface RunReport {
  session?: Session;
  execution?: Execution;
  metrics: Metric[];
  session_deleted: boolean;
  error?: { step?: string; attempt?: number; code: string; detail: string; exit_code?: number | null; log_tail?: string };
}

function parseTarget(target: string): { tool: string; workload: string } {
  const [tool, workload, ...rest] = target.split("/");
  if (!tool || !workload || rest.length) throw new UsageError(`name the benchmark as <tool>/<workload> (e.g. sysbench/cpu_10000), not '${target}'`);
  return { tool, workload };
}

/**
 * `benchwright run <tool>/<workload>`: a session of its own, one execution prepared and run,
 * its metrics, and the session deleted whatever happens (a failure, Ctrl-C), unless `--keep`.
 */
export async function runCommand(target: string, options: RunOptions, ctx: Context): Promise<number> {
  const { bw } = ctx;
  const { tool, workload } = parseTarget(target);
  const given = parseParamArgs(options.param);
  // Asked first, so that a wrong name costs no session, and to type the parameters.
  const benchmark = await bw.getBenchmark(tool);
  const declared = benchmark.workloads.find((w) => w.id === workload);
  if (!declared) throw new UsageError(`${tool} has no workload '${workload}'; choices: ${benchmark.workloads.map((w) => w.id).join(", ")}`);
  // `?? []`: a server from before workload parameters declares none.
  const params = Object.keys(given).length ? typeParams(given, declared.params ?? []) : undefined;
  const repetitions = repetitionPlan(options);

  const progress = createProgress(!ctx.json);
  const report: RunReport = { metrics: [], session_deleted: false };
  const interrupts = watchInterrupts((signal) => progress.log(`\n${signal}: stopping; deleting the session (again to quit at once)\n`));
  const { signal } = interrupts;
  let exitCode: number = ExitCode.ok;
  try {
    progress.start(`creating a session on ${options.provider}`);
    // Not abortable: a session created on the server must come back to us, to be deleted.
    report.session = await bw.createSession({
      provider: options.provider,
      ...(options.service ? { service: options.service } : {}),
      ...(options.share ? { shared: true } : {}),
    });
    progress.succeed(`session ${report.session.id} on ${report.session.provider.id}/${report.session.provider.type}`);
    signal.throwIfAborted();
    // `params` is only sent when given: a server without workload parameters refuses the field.
    // The branch and commit only under a CI that says them (its points carry them): an older server refuses the fields.
    const ci = ciEnvOf(process.env);
    const body: ExecutionCreate = {
      tool,
      workload,
      ...(params ? { params } : {}),
      ...(repetitions ? { repetitions } : {}),
      ...(ci.branch ? { branch: ci.branch } : {}),
      ...(ci.commit ? { commit: ci.commit } : {}),
    };
    report.execution = await bw.createExecution(report.session.id, body);
    signal.throwIfAborted();
    const execId = report.execution.id;
    for (const step of ["prepare", "run"] as const) {
      const attempt = await runStep(bw, progress, execId, step, { follow: options.follow ?? false, signal, repetitions });
      if (attempt.state !== "succeeded") {
        exitCode = ExitCode.stepFailed;
        report.error = await failedStep(ctx, attempt);
        break;
      }
      if (step === "run") report.metrics = attempt.metrics;
    }
    report.execution = await bw.getExecution(execId, { signal });
  } catch (e) {
    progress.stop();
    const reason = signal.aborted ? signal.reason : e;
    const failure = failureOf(reason, ctx.url);
    exitCode = failure.exitCode;
    report.error = { code: reason instanceof Interrupted ? "interrupted" : "error", detail: failure.message };
    if (!ctx.json) note(`${reason instanceof Interrupted ? "" : "error: "}${failure.message}`);
  } finally {
    if (report.session && !options.keep) {
      const deleted = await deleteSession(ctx, progress, report.session.id);
      report.session_deleted = deleted;
      if (!deleted && exitCode === ExitCode.ok) exitCode = ExitCode.api;
    } else if (report.session) {
      note(`session ${report.session.id} kept (--keep): its machines stay until DELETE /api/v1/sessions/${report.session.id}`);
    }
    interrupts.dispose();
  }
  // A Ctrl-C that came while the session was being deleted still says the run was cut short.
  if (signal.aborted) exitCode = (signal.reason as Interrupted).exitCode;
  if (ctx.json) printJson(report);
  else if (report.execution && !report.error) {
    print(`execution ${report.execution.id} (${report.execution.test.tool_id}/${report.execution.test.workload_id}): ${report.execution.state}`);
    print(metricsTable(report.metrics));
  }
  return exitCode;
}

async function failedStep(ctx: Context, attempt: StepAttempt): Promise<NonNullable<RunReport["error"]>> {
  const tail = await logTail(ctx.bw, attempt);
  if (!ctx.json) {
    note(
      `${attempt.step} failed${attempt.exit_code === null ? "" : ` with exit code ${attempt.exit_code}`}${attempt.error ? `: ${attempt.error.detail}` : ""}`,
    );
    if (tail) note(`--- the end of its log ---\n${tail}`);
  }
  return {
    step: attempt.step,
    attempt: attempt.attempt,
    code: attempt.error?.code ?? "step_failed",
    detail: attempt.error?.detail ?? `${attempt.step} failed`,
    exit_code: attempt.exit_code,
    log_tail: tail,
  };
}

async function deleteSession(ctx: Context, progress: Progress, sessionId: string): Promise<boolean> {
  progress.start(`deleting session ${sessionId}`);
  try {
    await ctx.bw.deleteSession(sessionId);
    progress.succeed(`session ${sessionId} deleted`);
    return true;
  } catch (e) {
    progress.fail(`session ${sessionId} NOT deleted: ${failureOf(e, ctx.url).message}`);
    if (ctx.json) note(`session ${sessionId} was not deleted: ${failureOf(e, ctx.url).message}`);
    return false;
  }
}
