import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Engine, type EngineOptions } from "@benchwright/engine";
import { createApp } from "../app.js";
import { engineLogOf } from "../operations/logger.js";
import { captureLog, type CapturedLog } from "./captured-log.js";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");

export interface Fixture {
  engine: Engine;
  app: ReturnType<typeof createApp>;
  dataDir: string;
  configDir: string;
  /** Each line the server logged (engine and HTTP, through its pino logger): as written, and its message decoded. */
  readonly logs: string[];
  /** The same lines, parsed. */
  log: CapturedLog;
  /**
   * Another app over this fixture's engine, with other HTTP settings (and the fixture's log and
   * response validation): an HTTP behaviour (CORS, the token, public metrics) needs no engine of its own.
   */
  appWith(settings: AppSettings): ReturnType<typeof createApp>;
  reopen(): Promise<Fixture>;
  close(): Promise<void>;
}

/** What `openFixture` and `appWith` set of the app itself. */
interface AppSettings {
  token?: string;
  corsOrigins?: string[];
  metricsPublic?: boolean;
}

/** A real engine on a throwaway data dir, with the repository's stored configurations. */
export async function openFixture(
  options: {
    token?: string;
    corsOrigins?: string[];
    metricsPublic?: boolean;
    persistent?: boolean;
    dataDir?: string;
    configDir?: string;
    engine?: Partial<EngineOptions>;
  } = {},
): Promise<Fixture> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "bw-data-"));
  let configDir = options.configDir;
  if (!configDir) {
    configDir = mkdtempSync(join(tmpdir(), "bw-config-"));
    cpSync(REPO_CONFIG, configDir, { recursive: true });
    mkdirSync(join(configDir, "benchmarks"), { recursive: true });
  }
  const log = captureLog("debug");
  const engine = await Engine.open({
    dataDir,
    configDir,
    inMemory: !options.persistent,
    pgliteImage: testPgliteImage(),
    log: engineLogOf(log.log),
    ...options.engine,
  });
  const appWith = (settings: AppSettings) =>
    createApp({
      engine,
      token: settings.token,
      corsOrigins: settings.corsOrigins,
      metricsPublic: settings.metricsPublic,
      validateResponses: true,
      log: log.log,
    });
  const app = appWith(options);
  const fixture: Fixture = {
    engine,
    app,
    dataDir,
    configDir,
    // A secret JSON-escaped in a line is looked for in both forms.
    get logs() {
      return log.raw.flatMap((line) => [line, String((JSON.parse(line) as { msg?: unknown }).msg ?? "")]);
    },
    log,
    appWith,
    async reopen() {
      await engine.close();
      return openFixture({ ...options, dataDir, configDir });
    },
    async close() {
      await engine.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return fixture;
}

/** Drops a one-workload definition (keyvalue parser) into the fixture's config dir, as a user would. */
export function dropDefinition(
  configDir: string,
  d: { id: string; workload: string; run: string; runTimeout?: number; params?: Record<string, object>; toolScripts?: Record<string, string> },
): void {
  const run = d.run
    .split("\n")
    .map((line) => `        ${line}`)
    .join("\n");
  writeFileSync(
    join(configDir, "benchmarks", `${d.id}.yaml`),
    [
      `id: ${d.id}`,
      `tool_name: ${d.id}`,
      "description: Dropped in by a test",
      "parser: keyvalue",
      `timeout: {prepare: 60, run: ${d.runTimeout ?? 60}}`,
      `scripts: ${JSON.stringify(d.toolScripts ?? {})}`,
      "workloads:",
      `  - id: ${d.workload}`,
      `    workload_name: ${d.workload}`,
      "    workload_description: Dropped in by a test",
      "    categories: [test]",
      ...(d.params ? [`    params: ${JSON.stringify(d.params)}`] : []),
      "    scripts:",
      "      run: |",
      run,
    ].join("\n") + "\n",
  );
}
