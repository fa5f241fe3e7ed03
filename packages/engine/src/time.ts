/** The wire format of every time: UTC, `YYYY-MM-DD HH:MM:SS` (the ancestor's). */
export function formatTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

/** Seconds as the contract writes durations: a decimal string, millisecond precision. */
export function formatDuration(seconds: number): string {
  return Math.max(0, seconds).toFixed(3);
}

/** The longest delay a Node timer takes: setTimeout and AbortSignal.timeout fire a longer one at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A delay for a timer, cut to the longest one it takes (24.8 days); a caller that waits longer arms it again. */
export function timerDelay(ms: number): number {
  return Math.min(Math.max(0, ms), MAX_TIMER_MS);
}
