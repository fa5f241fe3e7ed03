import type { EventsOptions } from "@benchwright/sdk";
import { api } from "./api.js";

/**
 * Calls `refresh` after events that match, at most once per `delayMs` (a burst of step events
 * makes one reload). Events only say *that* something changed: the view reloads the records,
 * so what it shows is always what the API answers, not a patched copy.
 */
export function onChanges(options: Omit<EventsOptions, "signal">, signal: AbortSignal, refresh: () => void, delayMs = 300): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  signal.addEventListener("abort", () => clearTimeout(timer));
  void (async () => {
    try {
      for await (const _event of api().events({ ...options, signal })) {
        if (signal.aborted) return;
        clearTimeout(timer);
        timer = setTimeout(refresh, delayMs);
      }
    } catch {
      // The live view is a bonus: the page works without it (a server without /events, a refused token).
    }
  })();
}
