import type { Provenance } from "@benchwright/contract";
import type { DescribeStepEnd } from "../model/events.js";
import type { ExecutionRow, ExecutionState, ExecutionWithSteps, NewExecution } from "../model/executions.js";
import type { MachineRow, VmRecord } from "../model/machines.js";
import type { RunMetricsRow } from "../model/metrics.js";
import type { NewPlan, PlanRow } from "../model/plans.js";
import type { LiveResourceCount, ResourceLifetime, ResourceRow } from "../model/resources.js";
import type { DescribeRunFigures } from "../model/series.js";
import type { NewSession, SessionRow, SessionState, SessionSummary } from "../model/sessions.js";
import type { StepEnd, StepHandle, StepKey, StepKind, StepRow } from "../model/steps.js";
import type { Db } from "./db.js";
import type { EventsRepository } from "./events-repository.js";
import { ExecutionsRepository } from "./executions-repository.js";
import { LeasesRepository, type LeaseState } from "./leases-repository.js";
import type { ExecutionWhere, SessionKey, SessionWhere } from "./list-where.js";
import { MachinesRepository } from "./machines-repository.js";
import { MetricsRepository } from "./metrics-repository.js";
import { PlanRunsRepository } from "./plan-runs-repository.js";
import { PlansRepository } from "./plans-repository.js";
import { SchedulesRepository } from "./schedules-repository.js";
import { ResourcesRepository } from "./resources-repository.js";
import { SessionsRepository } from "./sessions-repository.js";
import { SeriesRepository } from "./series-repository.js";
import { IngestsRepository } from "./ingests-repository.js";
import { snapshotTables } from "./snapshot.js";
import { StepsRepository } from "./steps-repository.js";
import { TelemetryRepository } from "./telemetry-repository.js";
import { WebhooksRepository } from "./webhooks-repository.js";
import { AuditRepository } from "./audit-repository.js";
import { RequestBucketsRepository } from "./request-buckets-repository.js";
import { QuotaRepository } from "./quota-repository.js";
import { TokensRepository } from "./tokens-repository.js";
import { OwnersRepository } from "./owners-repository.js";

/**
 * Every read and write of the engine's state, one repository per kind of data (their SQL in
 * sql/); state changes are conditional updates, so races lose cleanly. Each state change
 * appends its event to `events` in the same transaction: both commit, or neither. `Events` is
 * the log the engine gives it (the EventLog, which readers follow too).
 */
export class Store<Events extends EventsRepository = EventsRepository> {
  readonly sessions: SessionsRepository;
  readonly executions: ExecutionsRepository;
  readonly steps: StepsRepository;
  readonly leases: LeasesRepository;
  readonly machines: MachinesRepository;
  readonly resources: ResourcesRepository;
  readonly metrics: MetricsRepository;
  readonly plans: PlansRepository;
  /** The plans' runs and cells, read and written by plan-runs/ through it directly. */
  readonly planRuns: PlanRunsRepository;
  /** The plans' schedules, read and written by schedules/ through it directly. */
  readonly schedules: SchedulesRepository;
  /** The webhooks and their deliveries, read and written by alerts/ through it directly. */
  readonly webhooks: WebhooksRepository;
  /** Each metric's series over time, their points and changes, read and written by series/ through it directly. */
  readonly series: SeriesRepository;
  /** Results of harnesses Benchwright does not run, read and written by ingest/ and gate/ through it directly. */
  readonly ingests: IngestsRepository;
  /** What the machines' samplers saw during run steps, written by steps/ and read by the engine through it directly. */
  readonly telemetry: TelemetryRepository;
  /** The audit log of state-changing requests, written and read by the engine's facade through it directly. */
  readonly audit: AuditRepository;
  /** The rate limit's token buckets, one per principal, taken from by the engine's facade through it directly. */
  readonly requestBuckets: RequestBucketsRepository;
  /** Which principal made each session, and what of theirs is live, for the facade's quotas. */
  readonly quotas: QuotaRepository;
  /** The principals' API tokens, read and written by the server through it directly. */
  readonly tokens: TokensRepository;
  /** Whose each session and execution is, read and written by the server through it directly. */
  readonly owners: OwnersRepository;

  constructor(
    readonly db: Db,
    readonly events: Events,
    /** The data of the step.finished event a step's end appends (events/step-finished.ts). */
    describeStepEnd: DescribeStepEnd,
    /** The figures a successful run appends to its series (series/run-figures.ts); none are recorded without. */
    describeRunFigures?: DescribeRunFigures,
  ) {
    this.sessions = new SessionsRepository(db, events);
    this.executions = new ExecutionsRepository(db, events);
    this.series = new SeriesRepository(db, events);
    this.ingests = new IngestsRepository(db);
    this.steps = new StepsRepository(
      db,
      events,
      describeStepEnd,
      describeRunFigures && ((tx, executionId, started, metrics) => this.series.recordRunPoints(tx, executionId, started, describeRunFigures(metrics))),
    );
    this.leases = new LeasesRepository(db);
    this.machines = new MachinesRepository(db);
    this.resources = new ResourcesRepository(db);
    this.metrics = new MetricsRepository(db);
    this.plans = new PlansRepository(db, events);
    this.planRuns = new PlanRunsRepository(db, events);
    this.schedules = new SchedulesRepository(db);
    this.webhooks = new WebhooksRepository(db);
    this.telemetry = new TelemetryRepository(db);
    this.audit = new AuditRepository(db);
    this.requestBuckets = new RequestBucketsRepository(db);
    this.quotas = new QuotaRepository(db);
    this.tokens = new TokensRepository(db);
    this.owners = new OwnersRepository(db);
  }

  // ---- sessions

  insertSession(row: NewSession): Promise<void> {
    return this.sessions.insert(row);
  }
  getSession(id: string): Promise<SessionRow | undefined> {
    return this.sessions.get(id);
  }
  /** These sessions in any state (what a cost needs of them: their sealed configurations). */
  sessionsByIds(ids: string[]): Promise<SessionRow[]> {
    return this.sessions.byIds(ids);
  }
  listSessions(states: SessionState[]): Promise<SessionRow[]> {
    return this.sessions.list(states);
  }
  /** Moves a session between states; false when it was not in one of `from`. */
  setSessionState(id: string, from: SessionState[], to: SessionState): Promise<boolean> {
    return this.sessions.setState(id, from, to);
  }
  /** Whether the session is active (not being deleted, nor deleted). */
  sessionActive(sessionId: string): Promise<boolean> {
    return this.sessions.active(sessionId);
  }
  /** Sessions in one of `states` (one of them when `id` is given), as their views show them. */
  sessionSummaries(states: SessionState[], id?: string): Promise<SessionSummary[]> {
    return this.sessions.find({ states, id });
  }
  /** The sessions `where` selects (filters and page in the query), oldest first, as their views show them. */
  findSessions(where: SessionWhere): Promise<Array<SessionSummary & { key: SessionKey }>> {
    return this.sessions.find(where);
  }

  // ---- plans

  insertPlan(row: NewPlan): Promise<void> {
    return this.plans.insert(row);
  }
  getPlan(id: string): Promise<PlanRow | undefined> {
    return this.plans.get(id);
  }
  /** Plans in creation order after the `afterSeq` one, at most `limit` (all without). */
  listPlans(afterSeq: string | undefined, limit: number | undefined): Promise<PlanRow[]> {
    return this.plans.page(afterSeq, limit);
  }
  /** `missing` when there was no such plan, `busy` when a run of it has not ended. */
  deletePlan(id: string): Promise<"deleted" | "missing" | "busy"> {
    return this.plans.delete(id);
  }

  // ---- executions

  insertExecution(row: NewExecution): Promise<void> {
    return this.executions.insert(row);
  }
  getExecution(id: string): Promise<ExecutionRow | undefined> {
    return this.executions.get(id);
  }
  /** An execution and its session, in one query. */
  getExecutionWithSession(id: string): Promise<{ execution: ExecutionRow; session: SessionRow } | undefined> {
    return this.executions.getWithSession(id);
  }
  listExecutions(sessionIds?: string[]): Promise<ExecutionRow[]> {
    return this.executions.list(sessionIds);
  }
  /** The atomic state move of the state machine: null when the execution was not in one of `from`. */
  transitionExecution(id: string, from: ExecutionState[], to: ExecutionState): Promise<ExecutionRow | null> {
    return this.executions.transition(id, from, to);
  }
  setExecEnv(id: string, env: { vms: VmRecord[] }): Promise<void> {
    return this.executions.setExecEnv(id, env);
  }
  /** Executions with their steps, in creation order, in one query (see ExecutionsRepository.withSteps). */
  executionsWithSteps(where: ExecutionWhere | "all"): Promise<ExecutionWithSteps[]> {
    return this.executions.withSteps(where);
  }
  /** The successful run attempts of the executions `where` selects (see MetricsRepository.runMetrics). */
  runMetrics(where: ExecutionWhere): Promise<RunMetricsRow[]> {
    return this.metrics.runMetrics(where);
  }

  // ---- steps: each begins and ends with its execution's state move (see StepsRepository)

  beginStep(...args: Parameters<StepsRepository["begin"]>): Promise<StepRow | null> {
    return this.steps.begin(...args);
  }
  endStep(
    executionId: string,
    step: StepKind,
    attempt: number,
    result: StepEnd,
    move: { from: ExecutionState; to: ExecutionState },
    /** When set, only this lease holder may end the step: a follower that lost its lease records nothing. */
    owner?: string,
  ): Promise<(StepRow & { session_active: boolean }) | null> {
    return this.steps.end({ execution_id: executionId, step, attempt }, result, move, owner);
  }
  setStepProvenance(key: StepKey, provenance: Provenance): Promise<void> {
    return this.steps.setProvenance(key, provenance);
  }
  getStep(key: StepKey): Promise<StepRow | undefined> {
    return this.steps.get(key);
  }
  listSteps(executionIds: string[]): Promise<StepRow[]> {
    return this.steps.list(executionIds);
  }
  /** Steps recorded as running, of every execution or of these. */
  runningSteps(executionIds?: string[]): Promise<StepRow[]> {
    return this.steps.running(executionIds);
  }
  requestStepCancel(key: StepKey, reason: string): Promise<StepRow | null> {
    return this.steps.requestCancel(key, reason);
  }

  // ---- step leases: one owner follows a running step, and proves it is alive by renewing (see LeasesRepository)

  claimStep(key: StepKey, owner: string, leaseMs: number, place?: string): Promise<StepRow | null> {
    return this.leases.claim(key, owner, leaseMs, place);
  }
  renewLease(key: StepKey, owner: string, leaseMs: number): Promise<LeaseState | null> {
    return this.leases.renew(key, owner, leaseMs);
  }
  releaseLeases(owner?: string): Promise<number> {
    return this.leases.release(owner);
  }
  heldSteps(executionIds: string[]): Promise<StepKey[]> {
    return this.leases.held(executionIds);
  }
  orphanedSteps(limit: number): Promise<StepKey[]> {
    return this.leases.orphaned(limit);
  }
  recordStepHandle(key: StepKey, owner: string, handle: StepHandle): Promise<LeaseState | null> {
    return this.leases.recordHandle(key, owner, handle);
  }

  // ---- machines and the resources ledger

  upsertMachine(row: Omit<MachineRow, "host_key">): Promise<void> {
    return this.machines.upsert(row);
  }
  listMachines(sessionId: string): Promise<MachineRow[]> {
    return this.machines.list(sessionId);
  }
  getHostKey(sessionId: string, machineId: string): Promise<string | undefined> {
    return this.machines.hostKey(sessionId, machineId);
  }
  /** Records a host key on first use only: a key already recorded is never replaced here. */
  setHostKey(sessionId: string, machineId: string, fingerprint: string): Promise<void> {
    return this.machines.setHostKey(sessionId, machineId, fingerprint);
  }
  recordResource(row: Omit<ResourceRow, "destroyed_at" | "created">): Promise<void> {
    return this.resources.record(row);
  }
  markResourceDestroyed(sessionId: string, kind: string, resourceId: string): Promise<void> {
    return this.resources.markDestroyed(sessionId, kind, resourceId);
  }
  liveResourceCounts(): Promise<LiveResourceCount[]> {
    return this.resources.liveCounts();
  }
  resourceLifetimes(sessionIds: string[], kinds: string[]): Promise<ResourceLifetime[]> {
    return this.resources.lifetimes(sessionIds, kinds);
  }
  liveResources(sessionId: string): Promise<ResourceRow[]> {
    return this.resources.live(sessionId);
  }

  /** A snapshot of every table, for tests that assert a failed request changed nothing. */
  snapshot(): Promise<string> {
    return snapshotTables(this.db);
  }
}
