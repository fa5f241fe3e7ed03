import type { Execution, ExecutionCost } from "@benchwright/contract";
import type { CloudDriverName, ServicePrice } from "../config/provider-config-types.js";
import type { EngineLog } from "../engine-log.js";
import type { SessionMachines } from "../machines/session-machines.js";
import type { ExecutionWithSteps } from "../model/executions.js";
import type { SessionRow } from "../model/sessions.js";
import { MACHINE_KINDS } from "../providers/cloud/machine-kinds.js";
import { costTotals, sessionCosts, type CostBasis, type CostedExecution, type MachineLife } from "../results/cost.js";
import type { Store } from "../store/store.js";

export interface CostsOptions {
  store: Store;
  machines: SessionMachines;
  log?: EngineLog;
  /** The clock machines still alive and steps still running count until. */
  now?: () => Date;
}

/** Which executions a cost is asked for: whole sessions, or some executions (each with its share of its session's). */
export interface CostQuery {
  sessionIds?: readonly string[];
  executionIds?: readonly string[];
}

/** Each execution's cost and what they add up to, per currency: executions without a price are left out. */
export interface CostSummary {
  executions: Array<{ execution_id: string; session_id: string; cost: ExecutionCost }>;
  totals: Array<{ currency: string; amount: number }>;
}

/**
 * What executions cost, from their sessions' service types' `price_per_hour`: the time of
 * their steps, or (cloud) their share of the lifetimes of the machines the ledger recorded
 * (results/cost.ts says how the shares are made). Read from the store every time: a cost
 * grows while machines live and steps run.
 */
export class Costs {
  /** Sessions' prices (null: none), as their sealed configurations say: these never change. */
  private readonly prices = new Map<string, PricedSession | null>();

  constructor(private readonly options: CostsOptions) {}

  /**
   * The views of these executions (`rows`' views, in any order) with their costs: the same
   * array when none has one. Not kept with the views in the read cache, since a cost grows with
   * time alone while machines live; frozen as the views are.
   */
  async withCosts(rows: readonly ExecutionWithSteps[], views: readonly Execution[]): Promise<readonly Execution[]> {
    return withCosts(views, await this.of(rows));
  }

  /**
   * The cost of each of these executions whose session has a price, by execution id. A cloud
   * session's whole set of executions is read for the shares, whichever of them are given.
   */
  async of(executions: readonly CostedRow[]): Promise<Map<string, ExecutionCost>> {
    const { store } = this.options;
    const costs = new Map<string, ExecutionCost>();
    const sessionIds = [...new Set(executions.map((e) => e.session_id))];
    if (!sessionIds.length) return costs;
    const priced = await this.pricedSessions(sessionIds);
    if (!priced.length) return costs;

    const cloud = priced.filter((p) => p.session.provider_class === "cloud");
    const cloudIds = cloud.map((p) => p.session.id);
    const [whole, lifetimes] = await Promise.all([
      cloudIds.length ? store.executions.withSteps({ sessionIds: cloudIds }) : Promise.resolve([]),
      store.resources.lifetimes(cloudIds, [...new Set(cloud.map((p) => MACHINE_KINDS[p.session.driver as CloudDriverName]).filter(Boolean))]),
    ]);
    const now = (this.options.now ?? (() => new Date()))();
    for (const { session, price } of priced) {
      const basis: CostBasis = session.provider_class === "cloud" ? "machine_lifetime" : "step_time";
      const kind = MACHINE_KINDS[session.driver as CloudDriverName];
      const own = (basis === "machine_lifetime" ? whole : executions).filter((e) => e.session_id === session.id);
      const machines: MachineLife[] = lifetimes
        .filter((r) => r.session_id === session.id && r.kind === kind)
        .map((r) => ({ id: r.resource_id, created: new Date(r.created), destroyed: r.destroyed_at ? new Date(r.destroyed_at) : null }));
      const shares = sessionCosts({ perHour: price.perHour, currency: price.currency, basis, executions: own.map(costed), machines }, now);
      for (const [id, cost] of shares) costs.set(id, cost);
    }
    return costs;
  }

  /**
   * Whether these sessions' costs can grow no more: none has a price on machines still alive
   * (a cloud session's machines are counted until destroyed; step time ends with the steps).
   */
  async settled(sessionIds: readonly string[]): Promise<boolean> {
    const cloud = (await this.pricedSessions([...new Set(sessionIds)])).filter((p) => p.session.provider_class === "cloud");
    if (!cloud.length) return true;
    const kinds = [...new Set(cloud.map((p) => MACHINE_KINDS[p.session.driver as CloudDriverName]).filter(Boolean))];
    const lives = await this.options.store.resources.lifetimes(
      cloud.map((p) => p.session.id),
      kinds,
    );
    return lives.every((life) => life.destroyed_at);
  }

  /** What the executions asked for cost, each and in all (a plan run's total, say). */
  async costOf(query: CostQuery): Promise<CostSummary> {
    const { store } = this.options;
    const sessionIds = [...(query.sessionIds ?? [])];
    const executionIds = [...(query.executionIds ?? [])];
    const [bySession, byId] = await Promise.all([
      sessionIds.length ? store.executions.withSteps({ sessionIds }) : Promise.resolve([]),
      executionIds.length ? store.executions.withSteps({ ids: executionIds }) : Promise.resolve([]),
    ]);
    const asked = [...new Map([...bySession, ...byId].map((e) => [e.id, e])).values()];
    const costs = await this.of(asked);
    const executions = asked.flatMap((e) => {
      const cost = costs.get(e.id);
      return cost ? [{ execution_id: e.id, session_id: e.session_id, cost }] : [];
    });
    return { executions, totals: costTotals(executions.map((e) => e.cost)) };
  }

  /** Those of these sessions whose service type has a price, with it; each session's row is read once per process. */
  private async pricedSessions(ids: readonly string[]): Promise<PricedSession[]> {
    const unknown = ids.filter((id) => !this.prices.has(id));
    const rows = unknown.length ? await this.options.store.sessions.byIds(unknown) : [];
    if (this.prices.size + rows.length > MAX_KEPT_PRICES) this.prices.clear();
    for (const row of rows) {
      const price = this.priceOf(row);
      this.prices.set(row.id, price ? { session: { id: row.id, provider_class: row.provider_class, driver: row.driver }, price } : null);
    }
    return ids.flatMap((id) => this.prices.get(id) ?? []);
  }

  /** The session's price, from the configuration it sealed; none when that cannot be read (a key changed): a view must not fail for it. */
  private priceOf(session: SessionRow): ServicePrice | undefined {
    try {
      return this.options.machines.configOf(session).price;
    } catch (e) {
      this.options.log?.(`session ${session.id}: its configuration cannot be read for its price: ${(e as Error).message}`, {
        session_id: session.id,
        level: "warn",
      });
      return undefined;
    }
  }
}

/** `views` with the costs (by execution id) of those that have one: the same array when none has. */
export function withCosts(views: readonly Execution[], costs: ReadonlyMap<string, ExecutionCost>): readonly Execution[] {
  if (!views.some((v) => costs.has(v.id))) return views;
  return Object.freeze(
    views.map((v) => {
      const cost = costs.get(v.id);
      return cost ? Object.freeze({ ...v, cost: Object.freeze(cost) }) : v;
    }),
  );
}

/** What a cost reads of an execution: its session, its steps' times and its machines. */
type CostedRow = Pick<ExecutionWithSteps, "id" | "session_id" | "steps" | "exec_env">;

/** A session whose service type has a price, with what its cost's basis depends on. */
interface PricedSession {
  session: Pick<SessionRow, "id" | "provider_class" | "driver">;
  price: ServicePrice;
}

/** Sessions whose price is kept (see Costs.prices). */
const MAX_KEPT_PRICES = 1_000;

/** An execution as its cost counts it: its attempts, and the machines its prepare recorded. */
function costed(e: CostedRow): CostedExecution {
  return {
    id: e.id,
    steps: e.steps.map((s) => ({ started: new Date(s.started), duration: s.duration })),
    machines: (e.exec_env.vms ?? []).map((vm) => vm.id),
  };
}
