#!/usr/bin/env node
import { parseArgs } from "node:util";
import { Engine, isBenchwrightError } from "@benchwright/engine";
import { readConfig } from "./config.js";
import { createLogger } from "./logger.js";

const USAGE = `usage: benchwright sweep [--provider NAME] [--service TYPE] [--dry-run]

Destroys cloud resources tagged as Benchwright's whose session is deleted or unknown,
for every stored cloud configuration (or the one named), and prints what it found.`;

/** The operator's commands; reads the same environment as the server. Returns the exit code. */
export async function runCli(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== "sweep") {
    out(USAGE);
    return command === "--help" || command === "-h" ? 0 : 2;
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
  const log = createLogger();
  const engine = await Engine.open({ dataDir: config.dataDir, configDir: config.configDir, databaseUrl: config.databaseUrl, log: (l) => log(l) });
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

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("/benchwright")) {
  process.exitCode = await runCli(process.argv.slice(2));
}
