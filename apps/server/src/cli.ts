#!/usr/bin/env node
import { parseArgs } from "node:util";
import { DirectoryLocked, Engine, isBenchwrightError } from "@benchwright/engine";
import { outboundPolicyOf, readConfig } from "./process/config.js";
import { createLogger, engineLogOf } from "./operations/logger.js";
import { serve, stopOnSignals, work } from "./process/processes.js";
import { runTokensCommand, TOKENS_USAGE } from "./tokens-command.js";
import { CREATE_DATABASE_FLAG, checkDatabase, NoDatabase } from "./process/existing-database.js";

const USAGE = `usage: benchwright-server serve | worker | sweep [--provider NAME] [--service TYPE] [--dry-run] [--create-database] | tokens ...

  serve    the REST interface; it runs steps too unless BENCHWRIGHT_WORKER=false
           (--insecure: listen beyond loopback without BENCHWRIGHT_API_TOKEN)
  worker   runs steps from the queue shared on DATABASE_URL (PostgreSQL), serves nothing
  sweep    destroys cloud resources tagged as Benchwright's whose session is deleted or
           unknown, for every stored cloud configuration (or the one named), and prints
           what it found
  tokens   makes, lists and revokes the principals' API tokens (see tokens --help)
  sweep and tokens work on the server's existing database, and say which on stderr; where
  there is none they refuse, unless --create-database
  -h, --help  this text

Each reads the environment (see docs/configuration.md): HOST and PORT (default 127.0.0.1:5000),
BENCHWRIGHT_DATA_DIR (default .benchwright), BENCHWRIGHT_CONFIG_DIR, DATABASE_URL,
BENCHWRIGHT_API_TOKEN, LOG_LEVEL, BENCHWRIGHT_LOG_FORMAT (pretty or json). SIGTERM stops
serve and worker within BENCHWRIGHT_STOP_TIMEOUT seconds (default 10), handing running
steps back.`;

const HELP_FLAGS = new Set(["--help", "-h"]);

/**
 * The operator's commands; reads the same environment as the server. Returns the exit code.
 * `note` hears what is said beside the answer (which database a command opened).
 */
export async function runCli(argv: string[], out: (line: string) => void = console.log, note: (line: string) => void = console.error): Promise<number> {
  try {
    return await runCommand(argv, out, note);
  } catch (e) {
    if (e instanceof NoDatabase) {
      out(e.message);
      return 2;
    }
    if (!(e instanceof DirectoryLocked)) throw e;
    // `tokens` or `sweep` beside a running `serve` on the embedded database (one process only).
    out(`${e.message}. While a server runs on it, use its API instead (tokens: POST, GET and DELETE /api/v1/admin/tokens/; sweep: POST /api/v1/admin/sweep).`);
    return 1;
  }
}

async function runCommand(argv: string[], out: (line: string) => void, note: (line: string) => void): Promise<number> {
  const [command, ...given] = argv;
  // tokens and sweep only make sense on the server's database: one made here by mistake would
  // hold tokens the running server refuses.
  const create = given.includes(CREATE_DATABASE_FLAG);
  const rest = given.filter((a) => a !== CREATE_DATABASE_FLAG);
  // Asked anywhere on the line, help is all that happens: no server starts.
  if (argv.some((a) => HELP_FLAGS.has(a))) {
    out(command === "tokens" ? TOKENS_USAGE : USAGE);
    return 0;
  }
  if (command === "tokens") {
    return runTokensCommand(
      rest,
      () => {
        const config = readConfig();
        checkDatabase(config, create, note);
        // Only the database is wanted: no steps, no webhook deliveries.
        return Engine.open({
          dataDir: config.dataDir,
          configDir: config.configDir,
          databaseUrl: config.databaseUrl,
          log: engineLogOf(createLogger({ level: config.logLevel ?? "warn" })),
          work: false,
          webhooks: { deliver: false },
        });
      },
      out,
    );
  }
  if (command === "serve" || command === "worker") {
    const log = createLogger();
    try {
      const config = readConfig(process.env, rest);
      log.level = config.logLevel ?? "info";
      const running = command === "serve" ? serve(config, log) : work(config, log);
      stopOnSignals(running, config.stopTimeoutMs ?? 10_000, log);
      await running;
      // Runs until a signal stops it.
      await new Promise<never>(() => {});
    } catch (e) {
      log.fatal({ error: (e as Error).message }, "cannot start");
      return 1;
    }
  }
  if (command !== "sweep") {
    out(USAGE);
    return 2;
  }
  let values: { provider?: string; service?: string; "dry-run"?: boolean };
  try {
    ({ values } = parseArgs({
      args: rest,
      options: { provider: { type: "string" }, service: { type: "string" }, "dry-run": { type: "boolean" } },
    }));
  } catch (e) {
    out(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  const config = readConfig();
  checkDatabase(config, create, note);
  const log = createLogger({ level: config.logLevel });
  const engine = await Engine.open({
    dataDir: config.dataDir,
    configDir: config.configDir,
    databaseUrl: config.databaseUrl,
    log: engineLogOf(log),
    outbound: outboundPolicyOf(config),
    // A sweep runs for seconds: it leaves webhook deliveries to the servers.
    webhooks: { deliver: false },
  });
  try {
    const report = await engine.sweep({ provider: values.provider, service: values.service, dry_run: values["dry-run"] ?? false });
    out(JSON.stringify(report, null, 2));
    return report.resources.some((r) => r.error) ? 1 : 0;
  } catch (e) {
    if (!isBenchwrightError(e)) throw e;
    out(`${e.code}: ${e.detail}${e.extras.choices ? ` (choices: ${e.extras.choices.join(", ") || "none"})` : ""}`);
    return 2;
  } finally {
    await engine.close();
  }
}

// Only as a program of its own (its file, or the `benchwright-server` link npm makes to it): the
// `benchwright` command of @benchwright/cli imports runCli and must not start it twice.
if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("/benchwright-server")) {
  process.exitCode = await runCli(process.argv.slice(2));
}
