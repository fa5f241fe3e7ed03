import type { StepKey } from "../model/steps.js";

/**
 * Hands steps that need an owner to whichever worker takes them first. A job only says
 * "this step wants a follower": the follower proves it is alive with the step's lease in
 * the store, so a job needs no long visibility timeout and a lost job costs nothing (the
 * workers' sweep finds steps that nobody holds).
 */
export interface StepQueue {
  readonly kind: "in-process" | "pg-boss";
  send(job: StepKey): Promise<void>;
  /** Starts delivering jobs to `take`, which must return quickly (it claims, then runs in the background). */
  work(take: (job: StepKey) => Promise<void>): Promise<void>;
  /** Jobs sent and not yet taken. */
  depth(): Promise<number>;
  /** Whether the queue can deliver (for readiness). */
  readonly running: boolean;
  stop(): Promise<void>;
}
