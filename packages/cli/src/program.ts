import { createRequire } from "node:module";
import { Command, CommanderError, Option } from "commander";
import type { CompareOptions } from "./commands/compare.js";
import type { ExportOptions } from "./commands/export.js";
import type { GateOptions } from "./commands/gate.js";
import { ADAPTERS, type IngestOptions } from "./commands/ingest.js";
import type { LsOptions } from "./commands/ls.js";
import type { PlanReportOptions } from "./commands/plan-report.js";
import type { RegressionsOptions } from "./commands/regressions.js";
import type { RunOptions } from "./commands/run.js";
import type { SeriesOptions } from "./commands/series.js";
import { SERVER_COMMANDS, serverCommand } from "./commands/server.js";
import { contextOf, DEFAULT_URL, note, type Context, type GlobalOptions } from "./context.js";
import { ExitCode } from "./exit-codes.js";
import { failureOf } from "./failure.js";

const { version } = createRequire(import.meta.url)("../package.json") as { version: string };

const EXIT_CODES_HELP = `
Exit codes: 0 done; 1 a step failed; 2 usage error (or a name the server does not know);
3 server unreachable or another API error; 4 gate: a metric is inconclusive (1: one is worse);
130 interrupted (Ctrl-C), 143 terminated.`;

/**
 * The options of every command that talks to a server, accepted before the command
 * (`benchwright --json ls`) and after it (`benchwright ls --json`). No defaults here:
 * a subcommand's default would hide the value given before it.
 */
function withGlobals(command: Command): Command {
  return command
    .addOption(new Option("--url <url>", `the server (default: $BENCHWRIGHT_URL, else ${DEFAULT_URL})`))
    .addOption(new Option("--token <token>", "API token (default: $BENCHWRIGHT_API_TOKEN)"))
    .addOption(new Option("--json", "print one JSON document for scripts, no spinner or tables"));
}

function globalsOf(command: Command): GlobalOptions {
  const o = command.optsWithGlobals<Partial<GlobalOptions>>();
  return {
    url: o.url ?? (process.env.BENCHWRIGHT_URL || DEFAULT_URL),
    token: o.token ?? process.env.BENCHWRIGHT_API_TOKEN,
    json: o.json ?? false,
  };
}

/** Parses `argv` (without node and the script) and runs the command; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode: number = ExitCode.ok;
  // Each action runs through this: its errors become a message and an exit code, never a stack.
  // Each imports its command's module when it runs: a process runs one command, and the others'
  // dependencies (ora, the catalogue with yaml, cli-table3) cost every start 0.15 to 0.2 s of CPU.
  const act =
    <A extends unknown[]>(fn: (ctx: Context, command: Command, ...args: A) => Promise<number>) =>
    async (...args: unknown[]) => {
      const command = args[args.length - 1] as Command;
      const ctx = contextOf(globalsOf(command));
      try {
        exitCode = await fn(ctx, command, ...(args.slice(0, -1) as A));
      } catch (e) {
        const failure = failureOf(e, ctx.url);
        note(`error: ${failure.message}`);
        exitCode = failure.exitCode;
      }
    };

  const program = new Command("benchwright")
    .description("Run benchmarks on a Benchwright server, and list, show, compare and export their results.")
    .version(version)
    .enablePositionalOptions()
    .exitOverride()
    .showHelpAfterError("(benchwright --help lists the commands)")
    .addHelpText("after", EXIT_CODES_HELP);
  withGlobals(program);

  withGlobals(program.command("run"))
    .description("create a session, prepare and run one benchmark in it, print its metrics, delete the session")
    .argument("<tool/workload>", "the benchmark, e.g. sysbench/cpu_10000 (see GET /api/v1/benchmarks/)")
    .requiredOption("--provider <name>", "a provider configuration stored on the server")
    .option("--service <type>", "its service type (default: its only one)")
    .option("--param <name=value>", "a workload parameter; repeat for each", (v: string, all: string[]) => [...all, v], [] as string[])
    .option("--repeat <n>", "run the workload n times; each metric then gives n, mean, standard deviation and its 95% interval")
    .option("--until-cv <cv>", "repeat until the main metric's coefficient of variation is at most cv (0.05: 5%)")
    .option("--min <n>", "with --until-cv: at least this many times (server default 3)")
    .option("--max <n>", "with --until-cv: at most this many times (server default 10)")
    .option("--follow", "print the steps' log lines as they are written (on stderr)")
    .option("--keep", "keep the session instead of deleting it")
    .option("--share", "let every token of the server read the session and its results (they are yours alone otherwise)")
    .action(act(async (ctx, command, target: string) => (await import("./commands/run.js")).runCommand(target, command.opts<RunOptions>(), ctx)));

  const filters = (c: Command) =>
    c
      .option("--tool <id>", "only this tool's executions")
      .option("--workload <id>", "only this workload's executions")
      .option("--provider <name>", "only those of sessions on this provider configuration")
      .option("--state <states>", "only these states, comma-separated (completed,run_failed)")
      .option("--since <time>", "only those created at or after this ISO 8601 date or time")
      .option("--session <id>", "only this session's executions");

  filters(withGlobals(program.command("ls")))
    .description("list executions (the default) or sessions, oldest first")
    .argument("[what]", "sessions or executions", "executions")
    .option("--limit <n>", "at most this many (default: every match)")
    .action(act(async (ctx, command, what: string) => (await import("./commands/ls.js")).lsCommand(what, command.opts<LsOptions>(), ctx)));

  withGlobals(program.command("show"))
    .description("one execution: its record, steps and metrics")
    .argument("<execution-id>")
    .action(act(async (ctx, _command, id: string) => (await import("./commands/show.js")).showCommand(id, ctx)));

  withGlobals(program.command("compare"))
    .description("executions' metrics side by side, with confidence intervals, each against a baseline (the first) with a significance verdict")
    .argument("<execution-ids...>", "two or more")
    .option("--baseline <execution-id>", "the execution the others are compared with (default: the first)")
    .option("--confidence <level>", "confidence level of the intervals and the test (default: 0.95)")
    .option(
      "--margin <relative>",
      "the difference that matters (0.02: 2%): each figure then gets a claim (better, worse, equivalent, not worse, not better, inconclusive) in a sentence",
    )
    .option("--warmup <runs|auto>", "leave out each machine's first runs as warm-up: a count, or auto (as many as MSER finds)")
    .action(act(async (ctx, command, ids: string[]) => (await import("./commands/compare.js")).compareCommand(ids, command.opts<CompareOptions>(), ctx)));

  filters(withGlobals(program.command("export")))
    .description("the metrics of the matching executions' runs, as CSV or JSON Lines, streamed")
    .addOption(new Option("--format <format>", "csv or jsonl").choices(["csv", "jsonl"]).default("csv"))
    .option("-o, --output <file>", "write to this file instead of stdout")
    .action(act(async (ctx, command) => (await import("./commands/export.js")).exportCommand(command.opts<ExportOptions>(), ctx)));

  const plan = program.command("plan").description("plans: a suite of benchmarks across targets (a YAML file, as POST /api/v1/plans/ takes it)");
  for (const action of ["validate", "create"]) {
    withGlobals(plan.command(action))
      .description(
        action === "validate"
          ? "check a plan and print its targets, cells and executions; store nothing"
          : "check a plan, print its targets, cells and executions, and store it",
      )
      .argument("<file>", "the plan, in YAML")
      .action(act(async (ctx, _command, file: string) => (await import("./commands/plan.js")).planCommand(action, file, ctx)));
  }
  withGlobals(plan.command("run"))
    .description("store a plan and run it: a live matrix of its cells, then its ranking; Ctrl-C cancels the run (its sessions deleted, results kept)")
    .argument("<file>", "the plan, in YAML")
    .action(act(async (ctx, _command, file: string) => (await import("./commands/plan-run.js")).planRunCommand(file, {}, ctx)));
  withGlobals(plan.command("report"))
    .description("a plan run's report: its ranking (text), or the server's JSON, CSV, JSON Lines or self-contained HTML")
    .argument("<run>", "the run's id (or its first 8 characters, or <plan>/<run>)")
    .addOption(new Option("--format <format>", "text, json, csv, jsonl or html").choices(["text", "json", "csv", "jsonl", "html"]).default("text"))
    .option("--plan <plan-id>", "the run's plan (found when not given)")
    .option("-o, --output <file>", "write to this file instead of stdout")
    .action(
      act(async (ctx, command, run: string) => (await import("./commands/plan-report.js")).planReportCommand(run, command.opts<PlanReportOptions>(), ctx)),
    );

  const provider = program.command("provider").description("provider configurations: list, show, and push one (admin) from a YAML file");
  withGlobals(provider.command("ls"))
    .description("every provider configuration, with where it comes from (built in, file, API) and its version")
    .action(act(async (ctx) => (await import("./commands/provider.js")).providerLsCommand(ctx)));
  withGlobals(provider.command("show"))
    .description("one provider configuration: its secret fields named, never shown")
    .argument("<name>", "the configuration's name")
    .action(act(async (ctx, _command, name: string) => (await import("./commands/provider.js")).providerShowCommand(name, ctx)));
  withGlobals(provider.command("push"))
    .description(
      "create or replace a configuration from a YAML file as the server's providers/ folder holds; secrets in it, or {from_file: path} / {from_env: NAME}",
    )
    .argument("<file>", "the configuration, in YAML")
    .option("--name <name>", "its name (default: the file's name without its extension)")
    .action(
      act(async (ctx, command, file: string) => (await import("./commands/provider.js")).providerPushCommand(file, command.opts<{ name?: string }>(), ctx)),
    );

  const benchmark = program.command("benchmark").description("benchmark definitions: list, show, validate a file here, and push one (admin)");
  withGlobals(benchmark.command("ls"))
    .description("every benchmark, with where it comes from (built in, file, API) and its version")
    .action(act(async (ctx) => (await import("./commands/benchmark.js")).benchmarkLsCommand(ctx)));
  withGlobals(benchmark.command("show"))
    .description("one benchmark: its workloads, digest and, for a team's definition, its versions")
    .argument("<id>", "the benchmark's id")
    .action(act(async (ctx, _command, id: string) => (await import("./commands/benchmark.js")).benchmarkShowCommand(id, ctx)));
  withGlobals(benchmark.command("validate"))
    .description("check a definition file as the server would, with no server: exit 0 when valid, 2 with every problem")
    .argument("<file>", "the definition, in YAML")
    .action(act(async (ctx, _command, file: string) => (await import("./commands/benchmark.js")).benchmarkValidateCommand(file, ctx)));
  withGlobals(benchmark.command("push"))
    .description("create a team's definition, or write its next version, from a YAML file (checked here first)")
    .argument("<file>", "the definition, in YAML")
    .action(act(async (ctx, _command, file: string) => (await import("./commands/benchmark.js")).benchmarkPushCommand(file, ctx)));

  withGlobals(program.command("series"))
    .description("metrics over time: the series (one metric of one benchmark on one target), or one with its recent points and changes")
    .argument("[series-id]", "one series (its id, or its first 8 characters or more)")
    .option("--tool <id>", "only this tool's series")
    .option("--workload <id>", "only this workload's series")
    .option("--metric <name>", "only this metric's series")
    .option("--provider <name>", "only the series on this provider configuration")
    .option("--service-type <type>", "only the series on this service type")
    .option("--baseline <from[-to]>", "with an id: pin the baseline to a point or a range of points (3, or 1-5)")
    .option("--clear-baseline", "with an id: forget the baseline")
    .option("--margin <fraction>", "with --baseline: the relative difference that matters (0.02: 2%); the latest level then has a verdict")
    .option("--last <n>", `with an id: how many of the latest points to show (default 20)`)
    .option("--branch <name>", "with an id: only the points of this branch (those a CI's run or ingest recorded on it)")
    .action(act(async (ctx, command, id: string | undefined) => (await import("./commands/series.js")).seriesCommand(id, command.opts<SeriesOptions>(), ctx)));

  const regressions = withGlobals(program.command("regressions"))
    .description("the changes found in the series: open regressions, newest first (ack <id> acknowledges one)")
    .option("--all", "in every state, acknowledged ones too")
    .option("--improvements", "the improvements instead of the regressions")
    .action(act(async (ctx, command) => (await import("./commands/regressions.js")).regressionsCommand(command.opts<RegressionsOptions>(), ctx)));
  withGlobals(regressions.command("ack"))
    .description("acknowledge a change: it is no longer open")
    .argument("<change-id>", "its id, or its first 8 characters or more")
    .action(act(async (ctx, _command, id: string) => (await import("./commands/regressions.js")).acknowledgeCommand(id, ctx)));

  // ---- CI: a harness's own results, and the gate on them (issue 39)
  const ingestOptions = (command: Command) =>
    command
      .addOption(new Option("--adapter <name>", "the harness whose output the file is").choices(ADAPTERS))
      .option("--benchmark <name>", "the series' workload, e.g. the suite's name (default: default)")
      .option("--target <name>", "where it ran, e.g. the runner's label (default: default)")
      .option("--branch <name>", "the branch measured (default: the CI's, GITHUB_HEAD_REF or GITHUB_REF_NAME, CI_COMMIT_REF_NAME)")
      .option("--commit <sha>", "the commit measured (default: GITHUB_SHA, CI_COMMIT_SHA)");
  ingestOptions(withGlobals(program.command("ingest")))
    .description("add a harness's output (hyperfine, Google Benchmark, pytest-benchmark, go test -bench, generic JSON) to the series")
    .argument("<file>", "the harness's output file")
    .action(act(async (ctx, command, file: string) => (await import("./commands/ingest.js")).ingestCommand(file, command.opts<IngestOptions>(), ctx)));
  ingestOptions(withGlobals(program.command("gate")))
    .description(
      "ingest a harness's output, or run a plan, and compare each metric with its series' recent history (or another target): exit 0 nothing worse, 1 worse, 4 inconclusive",
    )
    .argument("[file]", "the harness's output file (or --ingest, --plan, --executions)")
    .option("--ingest <id>", "gate an ingest already sent instead of a file")
    .option("--plan <plan.yaml>", "run this plan (as plan run does, its points on the branch and commit) and gate its cells")
    .option("--executions <ids>", "gate executions already run (whole ids, comma-separated)")
    .option("--baseline-target <label>", "with --plan: compare each cell with this target's cell of the same run, not with a branch's history")
    .option("--baseline-executions <ids>", "with --executions: compare each with the execution of the same benchmark among these")
    .option("--baseline-branch <name>", "compare with this branch's history (default: the branch's own)")
    .option(
      "--base-branch <name>",
      "compare with this branch's when the branch has no history yet (default: GITHUB_BASE_REF, CI_MERGE_REQUEST_TARGET_BRANCH_NAME, else main)",
    )
    .option("--last <n>", "the latest points of the history compared with (default 10)")
    .option("--since <date>", "only the history's points since this date")
    .option("--margin <fraction>", "the relative difference that matters (default 0.05: 5%)")
    .addOption(
      new Option("--inconclusive <policy>", "what an inconclusive metric does: fail (exit 4), warn or pass (exit 0)")
        .choices(["fail", "warn", "pass"])
        .default("fail"),
    )
    .addOption(new Option("--format <format>", "the report").choices(["text", "markdown", "junit", "json"]).default("text"))
    .option("-o, --output <file>", "write the report there instead of stdout")
    .option("--dashboard <url>", "the dashboard the Markdown links to (default: the server's /ui/)")
    .action(act(async (ctx, command, file: string | undefined) => (await import("./commands/gate.js")).gateCommand(file, command.opts<GateOptions>(), ctx)));

  for (const name of SERVER_COMMANDS) {
    program
      .command(name)
      .description(
        `the server's '${name}' (needs @benchwright/server installed beside this command: npm install -g @benchwright/server, or until it is published its packed tarballs: see docs/deployment.md; benchwright ${name} --help)`,
      )
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .passThroughOptions()
      .argument("[args...]")
      .action(async (args: string[]) => {
        exitCode = await serverCommand([name, ...args]);
      });
  }

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    // Help and --version end with 0; every other complaint of the parser is a usage error.
    return e.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
  }
  return exitCode;
}
