import PgBoss from "pg-boss";
import type { EngineLog } from "../engine-log.js";
import type { StepKey } from "../model/steps.js";
import type { StepQueue } from "./step-queue.js";

const QUEUE = "benchwright-steps";

export interface PgBossQueueOptions {
  connectionString: string;
  /** pg-boss keeps its tables in a schema of its own. */
  schema: string;
  /** How often an idle worker looks for jobs; a job sent by this process is looked for at once. Default 500 ms. */
  pollMs?: number;
  log?: EngineLog;
}

/**
 * Steps as jobs in PostgreSQL through pg-boss: any number of servers send, any number of
 * workers fetch (SKIP LOCKED), each job once. pg-boss 10 is the last major release that
 * runs on Node 20; its `fetch`/`complete` are used instead of `work` so that a job this
 * process sends is fetched at once instead of at the next poll.
 */
export class PgBossQueue implements StepQueue {
  readonly kind = "pg-boss" as const;
  readonly #boss: PgBoss;
  readonly #pollMs: number;
  readonly #log: EngineLog;
  #take: ((job: StepKey) => Promise<void>) | undefined;
  #wake: (() => void) | undefined;
  #loop: Promise<void> | undefined;
  #started = false;
  #stopped = false;

  private constructor(boss: PgBoss, options: PgBossQueueOptions) {
    this.#boss = boss;
    this.#pollMs = options.pollMs ?? 500;
    this.#log = options.log ?? (() => {});
  }

  static async open(options: PgBossQueueOptions): Promise<PgBossQueue> {
    const boss = new PgBoss({
      connectionString: options.connectionString,
      schema: options.schema,
      max: 3,
      // Its own schedules and monitoring are not used; maintenance (archiving old jobs) is.
      schedule: false,
    });
    const queue = new PgBossQueue(boss, options);
    boss.on("error", (e: Error) => queue.#log(`step queue: ${e.message}`, { level: "warn" }));
    await boss.start();
    // A job only asks for a follower: it is never retried (the lease sweep recovers lost ones).
    if (!(await boss.getQueue(QUEUE))) await boss.createQueue(QUEUE, { name: QUEUE, retryLimit: 0, expireInSeconds: 15 * 60 }).catch(() => {});
    queue.#started = true;
    return queue;
  }

  get running(): boolean {
    return this.#started && !this.#stopped;
  }

  async send(job: StepKey): Promise<void> {
    await this.#boss.send(QUEUE, { ...job });
    this.#wake?.();
  }

  async work(take: (job: StepKey) => Promise<void>): Promise<void> {
    this.#take = take;
    this.#loop ??= this.#run();
  }

  async depth(): Promise<number> {
    return (await this.#boss.getQueueSize(QUEUE)) ?? 0;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#wake?.();
    await this.#loop?.catch(() => {});
    await this.#boss.stop({ graceful: false, wait: true, timeout: 2_000 }).catch(() => {});
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      let got = 0;
      try {
        const jobs = await this.#boss.fetch<StepKey>(QUEUE, { batchSize: 20 });
        got = jobs?.length ?? 0;
        if (got > 0) {
          await Promise.allSettled(jobs!.map((job) => this.#take!(job.data)));
          await this.#boss.complete(
            QUEUE,
            jobs!.map((job) => job.id),
          );
        }
      } catch (e) {
        if (!this.#stopped) this.#log(`step queue: cannot fetch jobs: ${(e as Error).message}`, { level: "warn" });
      }
      if (got === 0 && !this.#stopped) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.#pollMs);
          this.#wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.#wake = undefined;
      }
    }
  }
}

/** pg-boss's schema beside the engine's: a connection string that sets a search_path gets `<that schema>_queue`. */
export function queueSchemaOf(connectionString: string, override?: string): string {
  if (override) return override;
  try {
    const options = new URL(connectionString).searchParams.get("options") ?? "";
    const schema = /search_path=([A-Za-z_][A-Za-z0-9_]*)/.exec(options)?.[1];
    if (schema) return `${schema}_queue`;
  } catch {
    // Not a URL (a key=value string): the default schema.
  }
  return "benchwright_queue";
}
