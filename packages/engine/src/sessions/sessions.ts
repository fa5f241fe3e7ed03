import { randomUUID } from "node:crypto";
import type { Execution, ExecutionCost, Session, SessionCreate, SessionUpdate } from "@benchwright/contract";
import type { ProviderConfigFile } from "../config/provider-config.js";
import { withCosts, type Costs } from "../cost/costs.js";
import type { EngineLog } from "../engine-log.js";
import { BenchwrightError } from "../errors.js";
import { sessionCursor } from "../lists/cursor.js";
import { pageOf, sessionWhereOf, type Page, type SessionListQuery } from "../lists/list-query.js";
import { providerFailure, type SessionMachines } from "../machines/session-machines.js";
import type { Machine } from "../providers/provider.js";
import type { ReadCache } from "../read-cache.js";
import type { SecretBox } from "../secrets/secret-box.js";
import { scrubberOf } from "../secrets/scrub.js";
import type { Store } from "../store/store.js";
import type { SessionRow } from "../model/sessions.js";
import { SESSION_DELETED } from "../model/steps.js";
import { executionView, executionViews, sessionView } from "../views/execution-views.js";
import { liveSession } from "./live-session.js";
import { BOOTSTRAP_PRINCIPAL } from "../model/principals.js";
import { sessionConfigOf } from "./session-config.js";
import type { SessionSteps } from "./session-steps.js";

export interface SessionsOptions {
  store: Store;
  secrets: SecretBox;
  machines: SessionMachines;
  /** The read views, shared with the executions' reads (a session's view holds its executions). */
  reads: ReadCache;
  /** The Form A configurations, as they are now (files, the built-in, the API's). */
  providerConfigs: () => Promise<ProviderConfigFile[]>;
  steps: SessionSteps;
  log: EngineLog;
  /** The most seconds a session's `step_timeout` may give a step. */
  maxStepTimeoutS: number;
  /** What its executions cost: added to their views as they are read, never kept with them. */
  costs: Costs;
}

/** A session's life: made from a provider configuration, read, and deleted with what it made. */
export class Sessions {
  constructor(private readonly options: SessionsOptions) {}

  /**
   * `id` is given by a plan's run, which records it before the session is made (so that it is
   * made once). `owner` is the principal that asked (the bootstrap token's by default): written
   * with the session, so that no reader ever sees it without one.
   */
  async create(body: SessionCreate, { id = randomUUID(), owner = BOOTSTRAP_PRINCIPAL }: { id?: string; owner?: string | undefined } = {}): Promise<Session> {
    const { store, secrets, providerConfigs, maxStepTimeoutS, log } = this.options;
    const configs = "config" in body && body.config ? [] : await providerConfigs();
    const { resolved, config } = sessionConfigOf(body, { providerConfigs: () => configs, maxStepTimeoutS });
    const row: Omit<SessionRow, "deleted_at"> = {
      id,
      provider_name: config.name,
      service_type: config.serviceType,
      provider_class: config.class,
      driver: config.class === "cloud" ? config.driver : null,
      region: config.class === "cloud" ? (config.region ?? null) : null,
      // As written: configOf reads it with the same parser, whichever process needs it later.
      config_sealed: secrets.seal(resolved),
      state: "active",
      created: new Date(),
      owner,
      shared: body.shared ?? false,
    };
    await store.sessions.insert(row);
    log(`session ${row.id} created on ${config.class} configuration ${config.name}/${config.serviceType}`, { session_id: row.id });
    return sessionView({ ...row, deleted_at: null }, []);
  }

  /** The sessions that match the query's filters, the live ones unless its `state` says otherwise (a page of them with its `limit`), oldest first. */
  async list(query: SessionListQuery = {}): Promise<Page<Session>> {
    const { store, reads } = this.options;
    const { executions, page } = await reads.get(`sessions:${JSON.stringify(query)}`, async () => {
      const where = sessionWhereOf(query);
      // The page's sessions and their executions, in two queries side by side.
      const [rows, found] = await Promise.all([store.sessions.find(where), store.executions.withSteps({ sessions: where })]);
      const sessions = pageOf(rows, query.limit, (last) => sessionCursor(last.key));
      const bySession = new Map<string, Execution[]>(sessions.items.map((r) => [r.id, []]));
      for (const e of found) bySession.get(e.session_id)?.push(executionView(e, e.steps));
      return { executions: found, page: { items: sessions.items.map((r) => sessionView(r, bySession.get(r.id)!)), next: sessions.next } };
    });
    const costs = await this.options.costs.of(executions);
    const items = page.items.map((s) => sessionWithCosts(s, costs));
    return items.every((s, i) => s === page.items[i]) ? page : Object.freeze({ ...page, items: Object.freeze(items) as Session[] });
  }

  /** A session in any state: a deleted one's record outlives it, as its executions' results do. */
  async get(id: string): Promise<Session> {
    const { store, reads } = this.options;
    const { executions, view } = await reads.get(`session:${id}`, async () => {
      const [row] = await store.sessions.find({ states: ["active", "deleting", "deleted"], id: id });
      if (!row) throw new BenchwrightError("not_found", `No session ${id}`);
      const found = await store.executions.withSteps({ sessionIds: [id] });
      return { executions: found, view: sessionView(row, executionViews(found)) };
    });
    return sessionWithCosts(view, await this.options.costs.of(executions));
  }

  /** Shares the session with every principal or stops sharing it: a deleted (or deleting) one is a 409. */
  async update(id: string, { shared }: SessionUpdate): Promise<Session> {
    const { store } = this.options;
    const row = await liveSession(store, id);
    if (!(await store.owners.share(id, shared))) throw new BenchwrightError("wrong_state", `Session ${id} is ${row.state}`, { state: row.state });
    return this.get(id);
  }

  /** Stops its running steps, removes its work dirs, destroys what its provider created. */
  async delete(id: string): Promise<void> {
    const { store, machines, steps, log } = this.options;
    const row = await liveSession(store, id);
    if (!(await store.sessions.setState(id, ["active", "deleting"], "deleting"))) {
      throw new BenchwrightError("wrong_state", `Session ${id} is ${row.state}`, { state: row.state });
    }
    const executions = await store.executions.list([id]);
    const ids = executions.map((e) => e.id);
    // Steps followed here end now; those followed by other processes end when their owners
    // see the session's state (at their next lease renewal), or when their processes die below.
    await steps.stopExecutions(ids);
    const config = machines.configOf(row);
    const ctx = machines.context(row, config);
    try {
      const known = await machines.known(config, ctx);
      const failed = (machine: Machine, e: Error) =>
        log(`session ${id}: could not remove work dirs on ${machine.id}: ${scrubberOf(config).scrub(e.message)}`, {
          session_id: id,
          level: "warn",
        });
      await steps.removeWorkDirs(id, known, ids, failed);
      await steps.waitEnded(ids, STEP_END_WAIT_MS);
      // Whatever no owner recorded in time (an owner that died, or steps on destroyed machines) ends here.
      await steps.abandon(ids, SESSION_DELETED);
      // Again, now that no step of the session can begin or launch (Store.beginStep, steps/measure.ts):
      // a step begun just before the session became `deleting` may have launched after the first pass.
      await steps.removeWorkDirs(id, known, ids, failed);
      // Under the session's machines lock: a destroy never races a prepare that creates them, in any process.
      await store.db.exclusive(`machines:${id}`, () => machines.provider(config).destroy(ctx));
    } catch (e) {
      throw providerFailure(e, `Deleting session ${id} failed; DELETE it again to retry`, config);
    }
    await store.sessions.setState(id, ["deleting"], "deleted");
    log(`session ${id} deleted`, { session_id: id });
  }

  /**
   * Finishes the DELETEs a stop cut short, before this process takes steps: their steps are
   * then stopped rather than followed again. A deletion that fails again is logged, not thrown.
   */
  async resumeDeletions(): Promise<void> {
    const { store, log } = this.options;
    for (const session of await store.sessions.list(["deleting"])) {
      log(`finishing the deletion of session ${session.id}, interrupted by a stop`, { session_id: session.id });
      await this.delete(session.id).catch((e: Error) =>
        log(`session ${session.id}: deletion failed again: ${e.message}; DELETE it to retry`, { session_id: session.id, level: "error" }),
      );
    }
  }
}

/** How long a DELETE waits for the owners of the session's steps to record their ends. */
const STEP_END_WAIT_MS = 10_000;

/** A session's view with its executions' costs: the same view when none has one. */
function sessionWithCosts(view: Session, costs: ReadonlyMap<string, ExecutionCost>): Session {
  const executions = withCosts(view.executions, costs);
  return executions === view.executions ? view : Object.freeze({ ...view, executions: executions as Execution[] });
}
