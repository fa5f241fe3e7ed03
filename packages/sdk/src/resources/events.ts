import type { ClientContext } from "../client-context.js";
import { followEvents, type EventsOptions } from "../events.js";
import type { BenchwrightEvent } from "../types.js";

export interface EventsMethods {
  /**
   * What happens on the server, live: sessions, executions and steps changing state. It
   * reconnects by itself after a drop and resumes where it was: no event lost, none twice.
   *
   * @example
   * for await (const e of bw.events({ executionId, signal })) if (e.type === "execution.state") console.log(e.data.state);
   */
  events(options?: EventsOptions): AsyncIterable<BenchwrightEvent>;
}

export function eventsMethods({ raw }: ClientContext): EventsMethods {
  return {
    events: (o) => followEvents(raw, o),
  };
}
