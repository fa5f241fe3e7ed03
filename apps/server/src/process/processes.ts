import { Engine } from "@benchwright/engine";
import { outboundPolicyOf, webhookOptionsOf, type ServerConfig } from "./config.js";
import { engineLogOf, type Logger } from "../operations/logger.js";
import { startServer, type RunningServer } from "./server.js";
import { warnWithoutProviders } from "./no-providers.js";

/** `benchwright serve`: the REST interface (and, unless BENCHWRIGHT_WORKER=false, a worker). */
export async function serve(config: ServerConfig, log: Logger): Promise<RunningServer> {
  const running = await startServer(config, log);
  log.info(
    {
      url: `${running.url}/api/v1/`,
      dataDir: config.dataDir,
      configDir: config.configDir,
      database: config.databaseUrl ? "postgresql" : "pglite",
      worker: config.work !== false,
    },
    "listening",
  );
  warnWithoutProviders(await running.engine.announceProviders(), config.configDir, log);
  return running;
}

/** `benchwright worker`: runs steps from the shared queue, serves nothing. Needs PostgreSQL. */
export async function work(config: ServerConfig, log: Logger): Promise<{ engine: Engine; close(deadlineMs?: number): Promise<void> }> {
  if (!config.databaseUrl) throw new Error("A worker shares its database with the servers: set DATABASE_URL to their PostgreSQL");
  const engine = await Engine.open({
    dataDir: config.dataDir,
    configDir: config.configDir,
    builtinLocal: config.builtinLocal,
    databaseUrl: config.databaseUrl,
    queueSchema: config.queueSchema,
    work: true,
    // A worker drives plan runs too: they keep the principals' quotas there as well.
    quotas: config.quotas,
    log: engineLogOf(log),
    outbound: outboundPolicyOf(config),
    webhooks: webhookOptionsOf(config),
  });
  log.info({ dataDir: config.dataDir, database: "postgresql" }, "working");
  warnWithoutProviders(await engine.announceProviders(), config.configDir, log);
  return { engine, close: (deadlineMs = config.stopTimeoutMs ?? 10_000) => engine.close(deadlineMs) };
}

/**
 * SIGTERM and SIGINT stop the process well: no new requests or steps, running steps handed
 * back (they go on on their hosts and another process takes them up), and an exit within
 * the deadline even if something hangs.
 */
export function stopOnSignals(running: Promise<{ close(deadlineMs: number): Promise<void> }>, deadlineMs: number, log: Logger): void {
  // Given the start, not what it started: installed before the start, so a signal while it starts
  // (a server answers before it has announced its providers) waits for it and stops it, rather
  // than ending the process with the default action, its exit handlers unrun.
  const close = async (ms: number) => (await running).close(ms);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, deadlineSeconds: deadlineMs / 1000 }, "stopping");
    setTimeout(() => {
      log.error("stopping took longer than its deadline; exiting now");
      process.exit(1);
    }, deadlineMs).unref();
    close(Math.max(0, deadlineMs - 500)).then(
      () => process.exit(0),
      (e: Error) => {
        log.error({ error: e.message }, "stopping failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
}
