import { join } from "node:path";
import { CatalogSource } from "./catalog-source.js";
import { BenchmarkDefinitionsRepository } from "./store/benchmark-definitions-repository.js";
import { createDataDir } from "./data-dir.js";
import type { EngineOptions } from "./engine-options.js";
import type { EngineLog } from "./engine-log.js";
import { MachineAccess } from "./machines/machine-access.js";
import { InProcessQueue } from "./queue/in-process-queue.js";
import type { StepQueue } from "./queue/step-queue.js";
import { SecretBox } from "./secrets/secret-box.js";
import { openDb } from "./store/open-db.js";
import { migrate } from "./store/migrations.js";
import type { EventLog } from "./events/event-log.js";
import { storeWithEvents } from "./events/store-with-events.js";
import type { Store } from "./store/store.js";

/** What every part of the engine is built on, opened once per engine. */
export interface EngineResources {
  log: EngineLog;
  /** On the database, its schema migrated to the current one. */
  store: Store<EventLog>;
  catalogs: CatalogSource;
  secrets: SecretBox;
  access: MachineAccess;
  queue: StepQueue;
}

/** Creates the data dir and opens the database (PostgreSQL, or PGlite in it), the catalog, the secrets and the step queue. */
export async function openEngineResources(options: EngineOptions): Promise<EngineResources> {
  const log = options.log ?? (() => {});
  createDataDir(options.dataDir);
  const db = await openDb({
    databaseUrl: options.databaseUrl,
    pgliteDir: options.inMemory ? "memory://" : join(options.dataDir, "db"),
    pgliteImage: options.pgliteImage,
  });
  await migrate(db);
  const store = storeWithEvents(db);
  return {
    log,
    store,
    catalogs: new CatalogSource(join(options.configDir, "benchmarks"), log, new BenchmarkDefinitionsRepository(db)),
    secrets: options.secrets ?? SecretBox.fromEnvironment(options.dataDir),
    access: new MachineAccess(store),
    queue: options.databaseUrl ? await openPgBossQueue(options.databaseUrl, options.queueSchema, log) : new InProcessQueue(),
  };
}

/** pg-boss (and node-postgres under it) is loaded only where it is used: the embedded default starts without it. */
async function openPgBossQueue(databaseUrl: string, queueSchema: string | undefined, log: EngineLog): Promise<StepQueue> {
  const { PgBossQueue, queueSchemaOf } = await import("./queue/pg-boss-queue.js");
  return PgBossQueue.open({ connectionString: databaseUrl, schema: queueSchemaOf(databaseUrl, queueSchema), log });
}
