import type { DescribeStepEnd } from "../model/events.js";
import type { DescribeRunFigures } from "../model/series.js";
import type { Db } from "./db.js";
import type { EventsRepository } from "./events-repository.js";
import { ExecutionsRepository } from "./executions-repository.js";
import { LeasesRepository } from "./leases-repository.js";
import { MachinesRepository } from "./machines-repository.js";
import { MetricsRepository } from "./metrics-repository.js";
import { PlanRunsRepository } from "./plan-runs-repository.js";
import { PlansRepository } from "./plans-repository.js";
import { SchedulesRepository } from "./schedules-repository.js";
import { ResourcesRepository } from "./resources-repository.js";
import { SessionsRepository } from "./sessions-repository.js";
import { SeriesRepository } from "./series-repository.js";
import { IngestsRepository } from "./ingests-repository.js";
import { GatePointsRepository } from "./gate-points-repository.js";
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
 *
 * One convention: the engine's modules reach a repository through the store
 * (`store.sessions.get(id)`, `store.leases.claim(...)`); the store itself holds only what spans
 * them (the database, the event log, a snapshot for tests). Nothing outside the engine reaches
 * it: the server goes through Engine's methods.
 */
export class Store<Events extends EventsRepository = EventsRepository> {
  readonly sessions: SessionsRepository;
  readonly executions: ExecutionsRepository;
  readonly steps: StepsRepository;
  /** Who follows a running step, and until when (see LeasesRepository). */
  readonly leases: LeasesRepository;
  readonly machines: MachinesRepository;
  /** The cloud resources' ledger. */
  readonly resources: ResourcesRepository;
  readonly metrics: MetricsRepository;
  readonly plans: PlansRepository;
  /** The plans' runs and cells. */
  readonly planRuns: PlanRunsRepository;
  /** The plans' schedules. */
  readonly schedules: SchedulesRepository;
  /** The webhooks and their deliveries. */
  readonly webhooks: WebhooksRepository;
  /** Each metric's series over time, their points and changes. */
  readonly series: SeriesRepository;
  /** Results of harnesses Benchwright does not run (ingest/, gate/). */
  readonly ingests: IngestsRepository;
  /** The points a gate compares and their series' history on a branch. */
  readonly gatePoints: GatePointsRepository;
  /** What the machines' samplers saw during run steps. */
  readonly telemetry: TelemetryRepository;
  /** The audit log of state-changing requests. */
  readonly audit: AuditRepository;
  /** The rate limit's token buckets, one per principal. */
  readonly requestBuckets: RequestBucketsRepository;
  /** Which principal made each session, and what of theirs is live, for the quotas. */
  readonly quotas: QuotaRepository;
  /** The principals' API tokens (tokens/). */
  readonly tokens: TokensRepository;
  /** Whose each session and execution is. */
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
    this.gatePoints = new GatePointsRepository(db);
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

  /** A snapshot of every table, for tests that assert a failed request changed nothing. */
  snapshot(): Promise<string> {
    return snapshotTables(this.db);
  }
}
