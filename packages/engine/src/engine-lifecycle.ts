import type { EngineParts } from "./engine-parts.js";
import type { LiveResourceCount } from "./model/resources.js";
import type { StepQueue } from "./queue/step-queue.js";
import type { RoundTrips } from "./transport/round-trips.js";

/** See Engine.stats. */
export interface EngineStats {
  /** Steps this process follows now. */
  stepsRunning: number;
  /** Step jobs sent and not yet taken: pg-boss's queue on PostgreSQL (shared), this process's own on the embedded default. */
  queue: { kind: StepQueue["kind"]; depth: number | undefined };
  /** SSH connections of this process's pool alive now. */
  sshConnectionsOpen: number;
  /** Channels opened, commands run and SFTP operations asked of SSH hosts since the process started. */
  sshRoundTrips: RoundTrips;
  /** Cloud resources the ledger holds as not destroyed, over every process sharing the database. */
  liveResources: LiveResourceCount[] | undefined;
}

/** An engine's start, stop and health: in what order its background workers start and stop. */
export class EngineLifecycle {
  #resuming: Promise<void> = Promise.resolve();
  #closing = false;

  constructor(private readonly parts: EngineParts) {}

  /**
   * Finishes what a stop interrupted, then starts taking steps. A DELETE cut short is finished
   * first, so that its steps are stopped rather than followed again. Steps that were running
   * went on, detached, on their machines: the worker's sweep takes those nobody holds. The
   * embedded database has one process, so every lease in it is this process's, from before.
   */
  start(): void {
    const { store, sessions, steps, runDriver, scheduler, changeChecker, webhookDeliverer, log } = this.parts;
    this.#resuming = (async () => {
      if (store.db.kind === "pglite") {
        await store.leases.release();
        await store.planRuns.release();
      }
      await sessions.resumeDeletions();
      await steps.startWorking();
      if (!this.#closing) runDriver.start();
      if (!this.#closing) scheduler.start();
      if (!this.#closing) changeChecker.start();
    })().catch((e: Error) => log(`cannot start taking steps: ${e.message}`, { level: "error" }));
    webhookDeliverer.start();
  }

  /**
   * Stops: takes no more steps and hands back those it follows (they go on detached on their
   * hosts, and another worker, or this one restarted, takes them up), within `deadlineMs`.
   */
  async close(deadlineMs: number): Promise<void> {
    const { scheduler, runDriver, webhookDeliverer, changeChecker, steps, queue, access, store } = this.parts;
    this.#closing = true;
    // No tick fired once closing: a tick under way is recorded whole (its run is taken up by a driver) or not at all.
    await scheduler.stop();
    // The runs first: their drivers then begin no more steps, and others take them over at once.
    await runDriver.stop(Math.max(0, deadlineMs - 1_000));
    await webhookDeliverer.stop(Math.min(2_000, deadlineMs));
    await changeChecker.stop();
    // Refuses new steps at once; hands back those followed once an interrupted deletion is finished.
    const stepsStopped = steps.stop(Math.max(0, deadlineMs - 1_000));
    await this.#resuming;
    await stepsStopped;
    await queue.stop();
    await access.close();
    await store.db.close();
  }

  /** For /readyz: the database answers, its schema is current, and the step queue delivers. */
  async ready(): Promise<{ ready: boolean; database: boolean; queue: boolean }> {
    const database = await this.parts.store.db.query("SELECT 1").then(
      () => true,
      () => false,
    );
    const queue = this.parts.queue.running && !this.#closing;
    return { ready: database && queue, database, queue };
  }

  /**
   * What this process holds now, read when metrics are scraped. A figure that needs the
   * database is left out while it does not answer: the others still tell something.
   */
  async stats(): Promise<EngineStats> {
    const { queue, store, steps, access } = this.parts;
    const [queueDepth, liveResources] = await Promise.all([queue.depth().catch(() => undefined), store.resources.liveCounts().catch(() => undefined)]);
    return {
      stepsRunning: steps.running,
      queue: { kind: queue.kind, depth: queueDepth },
      sshConnectionsOpen: access.sshConnectionsOpen,
      sshRoundTrips: access.sshRoundTrips,
      liveResources,
    };
  }
}
