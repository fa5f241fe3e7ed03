import { BenchwrightError } from "../../errors.js";
import type { ProviderContext, SweptResource } from "../provider.js";
import type { Scrubber } from "../../secrets/scrub.js";

type Log = (line: string) => void;

/**
 * A cloud session's machines come up whole or not at all: on any failure everything the
 * session created is torn down before the error, scrubbed of credentials, is reported. The
 * engine calls this under the session's lock in the database, so it runs once at a time
 * for a session across every process.
 */
export function createOrTearDown<T>(
  driver: string,
  ctx: ProviderContext,
  tools: { scrubber: Scrubber },
  create: (log: Log) => Promise<T>,
  teardown: (log: Log) => Promise<void>,
): Promise<T> {
  const log = tools.scrubber.log(ctx.log);
  return create(log).catch(async (error: unknown) => {
    const failure = tools.scrubber.fail(driver, error);
    log(`${driver}: ${failure.detail}; destroying what the session created`);
    try {
      await teardown(log);
    } catch (cleanup) {
      const why = tools.scrubber.fail(`${driver} cleanup`, cleanup).detail;
      log(`${driver}: cleanup failed: ${why}`);
      throw new BenchwrightError("provider_failed", `${failure.detail} (cleanup incomplete: ${why})`);
    }
    throw failure;
  });
}

/** Destroys what the session created (the engine holds the session's lock), with errors scrubbed of credentials. */
export function tearDown(driver: string, ctx: ProviderContext, tools: { scrubber: Scrubber }, teardown: (log: Log) => Promise<void>): Promise<void> {
  return teardown(tools.scrubber.log(ctx.log)).catch((error: unknown) => {
    throw tools.scrubber.fail(`${driver} destroy`, error);
  });
}

/** Runs each destruction of a teardown; one that fails does not keep the others from running. */
export class Attempts {
  private readonly problems: string[] = [];
  constructor(private readonly scrubber: Scrubber) {}

  async run(what: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (error) {
      this.problems.push(this.scrubber.fail(what, error).detail);
    }
  }

  /** After every attempt: fails with all that went wrong, if anything did. */
  throwIfAny(): void {
    if (this.problems.length > 0) throw new BenchwrightError("provider_failed", this.problems.join("; "));
  }
}

/** A sweep's bookkeeping: which sessions are gone (each asked once), what was found, what was destroyed. */
export class SweepReport {
  readonly resources: SweptResource[] = [];
  private readonly verdicts = new Map<string, boolean>();
  private readonly log: Log;

  constructor(
    private readonly driver: string,
    private readonly providerName: string,
    private readonly options: SweepOptions,
    private readonly scrubber: Scrubber,
  ) {
    this.log = scrubber.log(options.log);
  }

  /** Whether a resource tagged with this session (or with none) belongs to no live session. */
  async orphaned(session: string | null): Promise<boolean> {
    if (session === null) return true;
    if (!this.verdicts.has(session)) this.verdicts.set(session, await this.options.isLive(session));
    return !this.verdicts.get(session);
  }

  /** Records an orphan and, unless this is a dry run, destroys it; a failure is recorded, not thrown. */
  async destroy(kind: string, id: string, session: string | null, fn: () => Promise<void>): Promise<void> {
    const r: SweptResource = { provider: this.providerName, kind, id, session_id: session, destroyed: false };
    this.resources.push(r);
    if (this.options.dryRun) return;
    try {
      await fn();
      r.destroyed = true;
      this.log(`${this.driver} sweep: destroyed ${kind} ${id} of session ${session ?? "(none)"}`);
    } catch (error) {
      r.error = this.scrubber.fail(`destroying ${kind} ${id}`, error).detail;
      this.log(`${this.driver} sweep: ${r.error}`);
    }
  }
}

export type SweepOptions = { isLive: (sessionId: string) => Promise<boolean>; dryRun: boolean; log: Log };
