import ora, { type Ora } from "ora";

/**
 * What a long command shows on stderr while it waits: a spinner whose text carries the
 * elapsed time on a terminal, one line per phase elsewhere (ora's own fallback), nothing
 * with `--json`. stdout stays for the result, so `run ... > results.txt` keeps the table.
 */
export interface Progress {
  /** Starts a phase: the spinner shows `text` and the seconds since now. */
  start(text: string): void;
  /** Says more of the phase under way (which repetition): its clock goes on. A line of its own without a terminal. */
  update(text: string): void;
  succeed(text: string): void;
  fail(text: string): void;
  /** Ends the phase without a line of its own. */
  stop(): void;
  /** Writes text (say, log lines) above the spinner, whole lines at a time; with `--json` too, asked for. */
  log(text: string): void;
  /** Writes what `log` still holds of an unfinished line. */
  flush(): void;
}

export function createProgress(enabled: boolean): Progress {
  // ora counts the lines to redraw by the terminal's width: one that reports 0 columns (a
  // pseudo-terminal nobody sized) would have it clear lines forever.
  const interactive = Boolean(process.stderr.isTTY) && (process.stderr.columns ?? 0) > 0 && process.env.TERM !== "dumb";
  // ora's default discardStdin puts the terminal in raw mode, where Ctrl-C raises no SIGINT, and
  // its discarder never reads stdin to raise one itself: a person's Ctrl-C did nothing.
  const spinner: Ora = ora({ stream: process.stderr, isSilent: !enabled, isEnabled: interactive, discardStdin: false });
  let timer: NodeJS.Timeout | undefined;
  let pending = "";
  let since = Date.now();
  let phase = "";
  const endTimer = () => {
    clearInterval(timer);
    timer = undefined;
  };
  const elapsed = () => `${phase} ${Math.round((Date.now() - since) / 1000)}s`;
  return {
    start(text) {
      endTimer();
      since = Date.now();
      phase = text;
      spinner.start(text);
      timer = setInterval(() => {
        spinner.text = elapsed();
      }, 1000);
      timer.unref();
    },
    update(text) {
      if (text === phase) return;
      phase = text;
      // Without a terminal ora writes a line for each start, and only then.
      if (interactive) spinner.text = elapsed();
      else spinner.start(text);
    },
    // ora's symbols are coloured whatever the stream: a log file or a pipe gets them plain.
    succeed(text) {
      endTimer();
      if (interactive) spinner.succeed(text);
      else spinner.stopAndPersist({ symbol: "✔", text });
    },
    fail(text) {
      endTimer();
      if (interactive) spinner.fail(text);
      else spinner.stopAndPersist({ symbol: "✖", text });
    },
    stop() {
      endTimer();
      spinner.stop();
    },
    log(text) {
      pending += text;
      const end = pending.lastIndexOf("\n");
      if (end < 0) return;
      // ora redraws the spinner below whatever is written while it spins.
      process.stderr.write(pending.slice(0, end + 1));
      pending = pending.slice(end + 1);
    },
    flush() {
      if (pending) process.stderr.write(`${pending}\n`);
      pending = "";
    },
  };
}
