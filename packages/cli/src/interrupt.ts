import { ExitCode } from "./exit-codes.js";

/** The reason a command's signal is aborted with when the user stops it. */
export class Interrupted extends Error {
  override readonly name = "Interrupted";
  constructor(readonly signal: "SIGINT" | "SIGTERM") {
    super(`interrupted by ${signal}`);
  }
  get exitCode(): number {
    return this.signal === "SIGINT" ? ExitCode.interrupted : ExitCode.terminated;
  }
}

export interface InterruptWatch {
  /** Aborted, with an {@link Interrupted} reason, at the first SIGINT or SIGTERM. */
  readonly signal: AbortSignal;
  /** Stops listening: the default behaviour of the signals comes back. */
  dispose(): void;
}

/**
 * The first Ctrl-C aborts `signal` so that the command can clean up (delete its session)
 * and exit by itself; a second one exits at once, for a user who will not wait for that.
 */
export function watchInterrupts(onFirst: (signal: "SIGINT" | "SIGTERM") => void = () => {}): InterruptWatch {
  const controller = new AbortController();
  const handler = (signal: "SIGINT" | "SIGTERM") => {
    if (controller.signal.aborted) {
      process.exit(new Interrupted(signal).exitCode);
    }
    onFirst(signal);
    controller.abort(new Interrupted(signal));
  };
  const onInt = () => handler("SIGINT");
  const onTerm = () => handler("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  return {
    signal: controller.signal,
    dispose() {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
    },
  };
}
