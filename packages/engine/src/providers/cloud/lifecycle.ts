import { BenchwrightError } from "../../errors.js";
import type { ProviderContext } from "../provider.js";
import type { SessionLocks } from "./polling.js";
import type { Scrubber } from "./scrubber.js";

type Log = (line: string) => void;

/**
 * A cloud session's machines come up whole or not at all: creation runs under the session's
 * lock, and on any failure everything the session created is torn down before the error,
 * scrubbed of credentials, is reported.
 */
export function createOrTearDown<T>(
  driver: string,
  ctx: ProviderContext,
  tools: { locks: SessionLocks; scrubber: Scrubber },
  create: (log: Log) => Promise<T>,
  teardown: (log: Log) => Promise<void>,
): Promise<T> {
  return tools.locks.run(ctx.sessionId, async () => {
    const log = tools.scrubber.log(ctx.log);
    try {
      return await create(log);
    } catch (error) {
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
    }
  });
}

/** Destroys what the session created, under its lock, with errors scrubbed of credentials. */
export function tearDown(
  driver: string,
  ctx: ProviderContext,
  tools: { locks: SessionLocks; scrubber: Scrubber },
  teardown: (log: Log) => Promise<void>,
): Promise<void> {
  return tools.locks.run(ctx.sessionId, async () => {
    try {
      await teardown(tools.scrubber.log(ctx.log));
    } catch (error) {
      throw tools.scrubber.fail(`${driver} destroy`, error);
    }
  });
}
