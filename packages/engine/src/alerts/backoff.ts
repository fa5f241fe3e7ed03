/**
 * How long a delivery waits after each failed attempt: 5 s, 30 s, 2 min, 10 min, 1 h; after the
 * last, it is given up (six attempts over about 73 minutes: a receiver down for an hour's
 * maintenance still gets it).
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000, 3_600_000];

/**
 * The wait before the next attempt once `attempts` attempts have failed (the first failure is
 * attempt 1), or undefined when the schedule is spent and the delivery has failed for good.
 */
export function retryDelay(attempts: number, schedule: readonly number[] = DEFAULT_RETRY_DELAYS_MS): number | undefined {
  if (!Number.isInteger(attempts) || attempts < 1) throw new RangeError(`attempts must be a whole number from 1, not ${attempts}`);
  return schedule[attempts - 1];
}
