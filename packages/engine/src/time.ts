/** The wire format of every time: UTC, `YYYY-MM-DD HH:MM:SS` (the ancestor's). */
export function formatTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace("T", " ");
}

/** Seconds as the contract writes durations: a decimal string, millisecond precision. */
export function formatDuration(seconds: number): string {
  return Math.max(0, seconds).toFixed(3);
}
