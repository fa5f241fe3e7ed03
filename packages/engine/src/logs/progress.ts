/** The shortest time between two progress reports of one writer. */
const PROGRESS_INTERVAL_MS = 500;

/**
 * Reports a writer's stored size at most every `intervalMs`: the first change at once, the
 * next ones once the interval has passed, and always the last one (so nothing is left unsaid).
 */
export class ProgressReporter {
  #reported = -1;
  #lastAt = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly read: () => number,
    private readonly report: ((bytes: number) => void) | undefined,
    private readonly intervalMs = PROGRESS_INTERVAL_MS,
  ) {}

  /** Something changed: report now, or when the interval allows. */
  changed(): void {
    if (!this.report || this.#timer) return;
    const wait = this.#lastAt + this.intervalMs - Date.now();
    if (wait <= 0) {
      this.#emit();
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#emit();
    }, wait);
    this.#timer.unref();
  }

  /** The final report, whatever the interval. */
  finish(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#emit();
  }

  #emit(): void {
    const bytes = this.read();
    if (!this.report || bytes === this.#reported) return;
    this.#reported = bytes;
    this.#lastAt = Date.now();
    try {
      this.report(bytes);
    } catch {
      // A hook's failure is not the log's.
    }
  }
}
