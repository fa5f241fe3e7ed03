/**
 * Calls `tick` now, then `intervalMs` after each call ends, until it answers false or `signal`
 * aborts. A failed tick (the server away for a moment) is tried again at the next interval: the
 * page keeps what it last showed meanwhile. Never two ticks at once, however slow the server.
 */
export function pollUntil(signal: AbortSignal, intervalMs: number, tick: () => Promise<boolean>): Promise<void> {
  return new Promise<void>((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      clearTimeout(timer);
      resolve();
    };
    signal.addEventListener("abort", stop, { once: true });
    const step = async () => {
      let again = true;
      try {
        again = await tick();
      } catch {
        // Tried again next time; the caller shows what went wrong if it wants to.
      }
      if (signal.aborted) return;
      if (!again) {
        signal.removeEventListener("abort", stop);
        resolve();
        return;
      }
      timer = setTimeout(() => void step(), intervalMs);
    };
    void step();
  });
}
