/** What the command's exit status means; the README lists them for scripts. */
export const ExitCode = {
  ok: 0,
  /** A prepare or run step failed (or timed out) on the server. */
  stepFailed: 1,
  /** The command line is wrong, or names something the server does not have. */
  usage: 2,
  /** The server could not be reached, or refused for another reason. */
  api: 3,
  /** `gate`: a cell is inconclusive (with `--inconclusive fail`, the default); a worse cell is 1. */
  inconclusive: 4,
  /** Ctrl-C (SIGINT); 128 + the signal's number, as shells report it. */
  interrupted: 130,
  /** SIGTERM. */
  terminated: 143,
} as const;

/** A mistake on the command line, found after the argument parser accepted it. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
