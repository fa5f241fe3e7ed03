import type { Session, SessionCreate, StepAttempt } from "@benchwright/contract";
import { BenchwrightError } from "../errors.js";
import type { StepKind } from "../model/steps.js";
import type { Sessions } from "../sessions/sessions.js";
import type { Steps } from "../steps/steps.js";
import type { Store } from "../store/store.js";

/** How long a principal at its session quota is told to wait: a session is deleted by its owner, not by time. */
const SESSION_QUOTA_RETRY_S = 60;
/** How long a principal at its quota of steps is told to wait: about the shortest step. */
const STEP_QUOTA_RETRY_S = 5;

export interface QuotasOptions {
  store: Store;
  sessions: Sessions;
  steps: Steps;
  /** The quotas a plan run's starter is held to (EngineOptions.quotas); the server's requests say theirs with each call. */
  limits?: { sessions?: number; steps?: number };
}

/**
 * A principal's quotas of live sessions and of steps under way. Every server on the database
 * checks and creates under one lock per principal, so two at once cannot both take the last place.
 */
export class Quotas {
  constructor(private readonly options: QuotasOptions) {}

  /** Creates a session for `principal` unless it has `maxLive` live sessions already (a 429 `quota_exceeded`). */
  createSession(principal: string, maxLive: number, body: SessionCreate, id?: string): Promise<Session> {
    const { store, sessions } = this.options;
    return store.db.exclusive(`quota:${principal}`, async () => {
      const live = await store.quotas.liveSessions(principal);
      if (live >= maxLive) throw quotaExceeded(`${principal} has ${live} live sessions, as many as it may; delete one first`, SESSION_QUOTA_RETRY_S);
      // Made within the lock, with its owner: the next creation's count includes it.
      return sessions.create(body, { owner: principal, id });
    });
  }

  /** Begins a step unless `principal`'s sessions have `maxSteps` executions preparing or running already (a 429 `quota_exceeded`). */
  startStep(principal: string, maxSteps: number, kind: StepKind, execId: string): Promise<StepAttempt> {
    const { store, steps } = this.options;
    return store.db.exclusive(`quota:${principal}`, async () => {
      const underWay = await store.quotas.stepsUnderWay(principal);
      if (underWay >= maxSteps) throw quotaExceeded(`${principal} has ${underWay} steps under way, as many as it may at once`, STEP_QUOTA_RETRY_S);
      return steps.start(kind, execId);
    });
  }

  /** A plan run's session, within its starter's session quota (`limits`), as its own request would be. */
  createRunSession(body: SessionCreate, o: { id: string; owner: string }): Promise<Session> {
    const max = this.options.limits?.sessions;
    return max === undefined ? this.options.sessions.create(body, o) : this.createSession(o.owner, max, body, o.id);
  }

  /** A plan run's step, within the step quota (`limits`) of its session's owner. */
  async startRunStep(kind: StepKind, execId: string): Promise<StepAttempt> {
    const { store, steps, limits } = this.options;
    if (limits?.steps === undefined) return steps.start(kind, execId);
    const owner = (await store.executions.getWithSession(execId))?.session.owner;
    return owner === undefined ? steps.start(kind, execId) : this.startStep(owner, limits.steps, kind, execId);
  }
}

function quotaExceeded(detail: string, retryAfter: number): BenchwrightError {
  return new BenchwrightError("quota_exceeded", detail, { retry_after: retryAfter });
}
