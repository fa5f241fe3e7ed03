import { SESSION_DELETED } from "../model/steps.js";

/**
 * Abort reasons that end a process's following of a step without ending the step: it goes
 * on, detached on its host, and another follower (or this process, restarted) takes it up.
 */
class HandBack extends Error {}

/** This process stops: its steps are handed back. */
export class EngineShutdown extends HandBack {
  constructor() {
    super("the server is stopping");
  }
}

/** Another process holds the step's lease now (this one stalled past it). */
export class LeaseLost extends HandBack {
  constructor() {
    super("the step's lease was lost to another process");
  }
}

/** The step's session is being deleted: the step ends, failed, and says why. */
export class SessionDeleted extends Error {
  constructor() {
    super(SESSION_DELETED);
  }
}

/** A cancel request stops the step: it ends, failed, with `message` (`cancelled at ... (request ...)`). */
export class StepCancelled extends Error {}

/** The cancel that stops this step, when a cancel request is why it stops. */
export function cancelOf(e: unknown, signal?: AbortSignal): StepCancelled | undefined {
  if (signal?.aborted && signal.reason instanceof StepCancelled) return signal.reason;
  return e instanceof StepCancelled ? e : undefined;
}

export function isHandBack(e: unknown, signal?: AbortSignal): boolean {
  return e instanceof HandBack || (!!signal?.aborted && signal.reason instanceof HandBack);
}
