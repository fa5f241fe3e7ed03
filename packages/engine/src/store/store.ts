import type { Metric, ParamValue } from "@benchwright/catalog";
import { EventLog } from "../events/event-log.js";
import { formatDuration, formatTimestamp } from "../time.js";
import { metricsView } from "../results/repetitions.js";
import type { Db } from "./db.js";
import { executionsClause, sessionsSelect, SqlParams, type ExecutionWhere, type SessionKey, type SessionWhere } from "./list-where.js";

export type SessionState = "active" | "deleting" | "deleted";
export type ExecutionState =
  | "created" | "preparing" | "prepared" | "prepare_failed" | "running" | "completed" | "run_failed";
export type StepKind = "prepare" | "run";
type StepState = "running" | "succeeded" | "failed";

export interface SessionRow {
  id: string;
  provider_name: string;
  service_type: string;
  provider_class: string;
  driver: string | null;
  region: string | null;
  config_sealed: string;
  state: SessionState;
  created: Date;
  deleted_at: Date | null;
}

interface TestInfo {
  tool_id: string;
  workload_id: string;
  tool_name: string;
  workload_name: string;
  workload_description: string;
}

export interface VmRecord {
  id: string;
  ip: string;
  platform: string;
  facts?: Record<string, unknown>;
}

export interface StoredMetric extends Metric {
  vm?: string;
  /** The role of the machine's part that measured it, for a workload with roles. */
  role?: string;
  /** Which repetition of a repeated run measured it (absent for a run that measures once). */
  repetition?: number;
}

/** How often a run measures: `count` times, or until the main metric's CV is at most `until_cv`, from `min` to `max` times. */
export type RepetitionPlan = { count: number } | { until_cv: number; min: number; max: number };

export interface ExecutionRow {
  id: string;
  session_id: string;
  tool_id: string;
  workload_id: string;
  test: TestInfo;
  /** The workload parameter values its steps use, defaults included. */
  params: Record<string, ParamValue>;
  /** How its runs repeat; null for once. */
  repetitions: RepetitionPlan | null;
  state: ExecutionState;
  created: Date;
  exec_env: { vms: VmRecord[] };
  metrics: StoredMetric[];
}

export interface StepRow {
  execution_id: string;
  step: StepKind;
  attempt: number;
  state: StepState;
  started: Date;
  duration: number | null;
  exit_code: number | null;
  error: string | null;
  log_file: string;
  metrics: StoredMetric[] | null;
  /** The process that follows the step now, and until when its lease holds. */
  owner: string | null;
  lease_until: Date | null;
  /** The machine whose part of the step is under way (in which repetition of a repeated run), its detached process group, and where its log part began. */
  machine_id: string | null;
  /** Which role's part on that machine (`client`, `client-2`), for a workload with roles. */
  role: string | null;
  repetition: number | null;
  pgid: number | null;
  machine_log_start: string | number | null;
  log_bytes: string | number;
  /** For a failed step: the problem code and its extra members (exit code, output tail...). */
  error_code: string | null;
  error_extras: Record<string, unknown> | null;
}

/** How a step attempt ended. */
export interface StepEnd {
  state: Exclude<StepState, "running">;
  duration: number;
  exit_code: number | null;
  error: string | null;
  metrics: StoredMetric[] | null;
  error_code?: string | null;
  error_extras?: Record<string, unknown> | null;
}

/** Names one attempt of one step. */
export interface StepKey {
  execution_id: string;
  step: StepKind;
  attempt: number;
}

export interface MachineRow {
  session_id: string;
  id: string;
  ip: string;
  platform: string;
  host_key: string | null;
  facts: Record<string, unknown> | null;
}

export interface ResourceRow {
  session_id: string;
  provider_name: string;
  kind: string;
  resource_id: string;
  meta_sealed: string;
  created: Date;
  destroyed_at: Date | null;
}

/** How many resources of one kind a configuration's sessions hold at the cloud (see Store.liveResourceCounts). */
export interface LiveResourceCount {
  /** The configuration's name. */
  provider: string;
  /** `ec2`, `openstack`...; empty when the session row is gone. */
  driver: string;
  kind: string;
  count: number;
}

/** Every read and write of the engine's state; state changes are conditional updates, so races lose cleanly. */
export class Store {
  /** Each state change below appends its event in the same transaction: both commit, or neither. */
  constructor(
    readonly db: Db,
    readonly events: EventLog = new EventLog(db),
  ) {}

  async insertSession(row: Omit<SessionRow, "deleted_at">): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO sessions (id, provider_name, service_type, provider_class, driver, region, config_sealed, state, created)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [row.id, row.provider_name, row.service_type, row.provider_class, row.driver, row.region, row.config_sealed, row.state, row.created],
      );
      await this.events.append(
        { type: "session.created", session_id: row.id, execution_id: null, data: { provider: row.provider_name, service_type: row.service_type } },
        tx,
      );
    });
  }

  async getSession(id: string): Promise<SessionRow | undefined> {
    return (await this.db.query<SessionRow>("SELECT * FROM sessions WHERE id = $1", [id]))[0];
  }

  async listSessions(states: SessionState[]): Promise<SessionRow[]> {
    return this.db.query<SessionRow>("SELECT * FROM sessions WHERE state = ANY($1) ORDER BY created, id", [states]);
  }

  /** Moves a session between states; false when it was not in one of `from`. */
  async setSessionState(id: string, from: SessionState[], to: SessionState): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE sessions SET state = $3, deleted_at = CASE WHEN $3 = 'deleted' THEN now() ELSE deleted_at END
         WHERE id = $1 AND state = ANY($2) RETURNING id`,
        [id, from, to],
      );
      if (rows.length !== 1) return false;
      await this.events.append({ type: "session.state", session_id: id, execution_id: null, data: { state: to } }, tx);
      return true;
    });
  }

  async insertExecution(
    row: Omit<ExecutionRow, "exec_env" | "metrics" | "params" | "repetitions"> & { params?: ExecutionRow["params"]; repetitions?: RepetitionPlan | null },
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO executions (id, session_id, tool_id, workload_id, test, params, repetitions, state, created) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          row.id,
          row.session_id,
          row.tool_id,
          row.workload_id,
          JSON.stringify(row.test),
          JSON.stringify(row.params ?? {}),
          row.repetitions ? JSON.stringify(row.repetitions) : null,
          row.state,
          row.created,
        ],
      );
      await this.events.append(
        {
          type: "execution.created",
          session_id: row.session_id,
          execution_id: row.id,
          data: { tool: row.tool_id, workload: row.workload_id, params: row.params ?? {}, ...(row.repetitions ? { repetitions: row.repetitions } : {}) },
        },
        tx,
      );
    });
  }

  async getExecution(id: string): Promise<ExecutionRow | undefined> {
    return (await this.db.query<ExecutionRow>(`SELECT ${EXECUTION_COLUMNS} FROM executions WHERE id = $1`, [id]))[0];
  }

  /** An execution and its session, in one query. */
  async getExecutionWithSession(id: string): Promise<{ execution: ExecutionRow; session: SessionRow } | undefined> {
    const [row] = await this.db.query<ExecutionRow & { session: Omit<SessionRow, "created" | "deleted_at"> & { created: string; deleted_at: string | null } }>(
      `SELECT ${EXECUTION_COLUMNS.split(", ").map((c) => `e.${c}`).join(", ")}, row_to_json(s.*) AS session
         FROM executions e JOIN sessions s ON s.id = e.session_id WHERE e.id = $1`,
      [id],
    );
    if (!row) return undefined;
    const { session: s, ...execution } = row;
    const session = typeof s === "string" ? JSON.parse(s) : s;
    return {
      execution,
      session: { ...session, created: new Date(session.created), deleted_at: session.deleted_at === null ? null : new Date(session.deleted_at) },
    };
  }

  async listExecutions(sessionIds?: string[]): Promise<ExecutionRow[]> {
    if (sessionIds) {
      return this.db.query<ExecutionRow>(
        `SELECT ${EXECUTION_COLUMNS} FROM executions WHERE session_id = ANY($1) ORDER BY seq`,
        [sessionIds],
      );
    }
    return this.db.query<ExecutionRow>(`SELECT ${EXECUTION_COLUMNS} FROM executions ORDER BY seq`);
  }

  /** The atomic state move of the state machine: null when the execution was not in one of `from`. */
  async transitionExecution(id: string, from: ExecutionState[], to: ExecutionState): Promise<ExecutionRow | null> {
    return this.db.transaction(async (tx) => {
      // Locked first, so that the state it had is the one the update replaces.
      const [before] = await tx.query<{ state: ExecutionState }>("SELECT state FROM executions WHERE id = $1 FOR UPDATE", [id]);
      const rows = await tx.query<ExecutionRow>(
        `UPDATE executions SET state = $3 WHERE id = $1 AND state = ANY($2) RETURNING ${EXECUTION_COLUMNS}`,
        [id, from, to],
      );
      if (!rows[0]) return null;
      await this.events.append(
        { type: "execution.state", session_id: rows[0].session_id, execution_id: id, data: { state: to, previous: before.state } },
        tx,
      );
      return rows[0];
    });
  }

  async setExecEnv(id: string, env: { vms: VmRecord[] }): Promise<void> {
    await this.db.query("UPDATE executions SET exec_env = $2 WHERE id = $1", [id, JSON.stringify(env)]);
  }

  /**
   * Moves the execution into the step's transitional state and opens the step's next attempt,
   * in one transaction: a crash can never leave the one without the other. Null when the
   * execution was not in one of `from` (another step holds it, or the state forbids it), or its
   * session is no longer active: the session's row is held (shared) until the step is in, so
   * that a DELETE's move to `deleting` comes either before (no step) or after (it sees the step).
   */
  async beginStep(
    executionId: string,
    step: StepKind,
    move: { from: ExecutionState[]; to: ExecutionState },
    started: Date,
    logFileOf: (attempt: number) => string,
    /** The lease to begin it with: a worker of the process that begins it follows it at once, without claiming it after. */
    claim?: { owner: string; leaseMs: number },
  ): Promise<StepRow | null> {
    return this.db.transaction(async (tx) => {
      if (!(await sessionActive(tx, executionId))) return null;
      // The row is locked by the subquery before it is updated, so that the state it had is the
      // one the update replaces (for the event): both in one statement.
      const [before] = await tx.query<{ state: ExecutionState; session_id: string }>(
        `UPDATE executions e SET state = $3 FROM (SELECT id, state FROM executions WHERE id = $1 FOR UPDATE) b
         WHERE e.id = b.id AND b.state = ANY($2) RETURNING b.state, e.session_id`,
        [executionId, move.from, move.to],
      );
      if (!before) return null;
      const [{ next }] = await tx.query<{ next: number }>(
        "SELECT COALESCE(MAX(attempt), 0) + 1 AS next FROM steps WHERE execution_id = $1 AND step = $2",
        [executionId, step],
      );
      const attempt = Number(next);
      const rows = await tx.query<StepRow>(
        `INSERT INTO steps (execution_id, step, attempt, state, started, log_file, owner, lease_until)
         VALUES ($1, $2, $3, 'running', $4, $5, $6, CASE WHEN $6::text IS NULL THEN NULL ELSE now() + $7 * interval '1 millisecond' END) RETURNING *`,
        [executionId, step, attempt, started, logFileOf(attempt), claim?.owner ?? null, claim?.leaseMs ?? null],
      );
      const about = { session_id: before.session_id, execution_id: executionId };
      await this.events.appendAll(
        [
          { type: "execution.state", ...about, data: { state: move.to, previous: before.state } },
          { type: "step.started", ...about, data: { step, attempt, started: formatTimestamp(new Date(rows[0].started)) } },
        ],
        tx,
      );
      return rows[0];
    });
  }

  /**
   * Records how a step attempt ended and moves the execution on, in one transaction: the
   * step's row, the execution's state and (for a successful run) its metrics change together
   * or not at all. Only a step still `running` is finished, so recording twice is harmless.
   * A success of a step whose session is no longer active is recorded as a failure: its
   * session's DELETE began while it ran, and its work is being removed (see SESSION_DELETED).
   * The step's row as it ended, and whether its session is still active; null when it had
   * ended already (or another owner holds it).
   */
  async endStep(
    executionId: string,
    step: StepKind,
    attempt: number,
    result: StepEnd,
    move: { from: ExecutionState; to: ExecutionState },
    /** When set, only this lease holder may end the step: a follower that lost its lease records nothing. */
    owner?: string,
  ): Promise<(StepRow & { session_active: boolean }) | null> {
    return this.db.transaction(async (tx) => {
      // Held (shared) to the end, as beginStep does: a DELETE's move to `deleting` comes before or after the whole end.
      const session_active = await sessionActive(tx, executionId);
      if (!session_active && result.state === "succeeded") {
        result = { state: "failed", duration: result.duration, exit_code: null, error: SESSION_DELETED, metrics: null, error_code: "step_failed" };
        move = { from: move.from, to: FAILED_STATE[step] };
      }
      const finished = await tx.query<StepRow>(
        `UPDATE steps SET state = $4, duration = $5, exit_code = $6, error = $7, metrics = $8, error_code = $9, error_extras = $10,
           owner = NULL, lease_until = NULL
         WHERE execution_id = $1 AND step = $2 AND attempt = $3 AND state = 'running' AND ($11::text IS NULL OR owner = $11) RETURNING *`,
        [
          executionId, step, attempt, result.state, result.duration, result.exit_code, result.error,
          result.metrics && JSON.stringify(result.metrics), result.error_code ?? null,
          result.error_extras ? JSON.stringify(result.error_extras) : null, owner ?? null,
        ],
      );
      if (finished.length === 0) return null;
      // The run's metrics (a successful run) and the state move (only from `move.from`) in one
      // statement, which says whether the state moved; the row is locked before it is read.
      const metrics = step === "run" && result.state === "succeeded" ? JSON.stringify(result.metrics ?? []) : null;
      const [row] = await tx.query<{ session_id: string; moved: boolean }>(
        `UPDATE executions e SET metrics = COALESCE($4::jsonb, e.metrics), state = CASE WHEN b.state = $2 THEN $3 ELSE e.state END
           FROM (SELECT id, state FROM executions WHERE id = $1 FOR UPDATE) b
          WHERE e.id = b.id RETURNING e.session_id, b.state = $2 AS moved`,
        [executionId, move.from, move.to, metrics],
      );
      const moved = row.moved ? [row] : [];
      const about = { session_id: row.session_id, execution_id: executionId };
      await this.events.appendAll(
        [
          { type: "step.finished", ...about, data: stepFinished(step, attempt, new Date(finished[0].started), result) },
          ...(moved.length ? [{ type: "execution.state" as const, ...about, data: { state: move.to, previous: move.from } }] : []),
        ],
        tx,
      );
      return { ...finished[0], session_active };
    });
  }

  async listSteps(executionIds: string[]): Promise<StepRow[]> {
    return this.db.query<StepRow>(
      "SELECT * FROM steps WHERE execution_id = ANY($1) ORDER BY started, step, attempt",
      [executionIds],
    );
  }

  // ---- what the read views show, each in one query

  /** Sessions in one of `states` (one of them when `id` is given), as their views show them. */
  async sessionSummaries(states: SessionState[], id?: string): Promise<SessionSummary[]> {
    return this.findSessions({ states, id });
  }

  /** The sessions `where` selects (filters and page in the query), oldest first, as their views show them. */
  async findSessions(where: SessionWhere): Promise<Array<SessionSummary & { key: SessionKey }>> {
    const params = new SqlParams();
    // created as text too, in UTC whatever the server's settings: its microseconds, which a Date would round, make the page key.
    const rows = await this.db.query<SessionSummary & { created_key: string }>(
      sessionsSelect(where, params, `${SESSION_SUMMARY_COLUMNS}, to_char(created AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_key`),
      params.values,
    );
    return rows.map(({ created_key, ...row }) => ({ ...row, key: { created: created_key, id: row.id } }));
  }

  /**
   * Executions with their steps, in creation order: those `where` selects (one, those of some
   * sessions, those that match a list's filters, a page of them), or all. The steps come
   * aggregated in the execution's row, so that the answer is one query whatever its size.
   */
  async executionsWithSteps(where: ExecutionWhere | "all"): Promise<ExecutionWithSteps[]> {
    const params = new SqlParams();
    const rows = await this.db.query<ExecutionWithSteps & { steps: Array<StepSummary & { started: string }> }>(
      `SELECT ${EXECUTION_COLUMNS.split(", ").map((c) => `e.${c}`).join(", ")}, e.seq::text AS seq,
         COALESCE((SELECT json_agg(json_build_object(${STEP_SUMMARY_FIELDS}) ORDER BY s.started, s.step, s.attempt)
                   FROM steps s WHERE s.execution_id = e.id), '[]'::json) AS steps
       FROM executions e ${executionsClause(where === "all" ? {} : where, params)}`,
      params.values,
    );
    for (const row of rows) for (const step of row.steps) (step as StepSummary).started = new Date(step.started);
    return rows;
  }

  /**
   * The successful run attempts of the executions `where` selects (a page of them), with what
   * the metrics export writes beside each figure: one row per attempt, in the order of the
   * executions then of the attempts, and one row without an attempt for an execution that has
   * none (so that the page's last `seq` is known).
   */
  async runMetrics(where: ExecutionWhere): Promise<RunMetricsRow[]> {
    const params = new SqlParams();
    return this.db.query<RunMetricsRow>(
      `SELECT e.seq::text AS seq, e.id AS execution_id, e.session_id, ss.provider_name, ss.service_type, e.tool_id, e.workload_id,
              e.params, e.exec_env, st.attempt, st.started, st.metrics
         FROM (SELECT e.* FROM executions e ${executionsClause(where, params)}) e
         JOIN sessions ss ON ss.id = e.session_id
         LEFT JOIN steps st ON st.execution_id = e.id AND st.step = 'run' AND st.state = 'succeeded'
        ORDER BY e.seq, st.attempt`,
      params.values,
    );
  }

  /** Steps recorded as running, of every execution or of these. */
  async runningSteps(executionIds?: string[]): Promise<StepRow[]> {
    if (executionIds) return this.db.query<StepRow>("SELECT * FROM steps WHERE state = 'running' AND execution_id = ANY($1)", [executionIds]);
    return this.db.query<StepRow>("SELECT * FROM steps WHERE state = 'running'");
  }

  async upsertMachine(row: Omit<MachineRow, "host_key">): Promise<void> {
    await this.db.query(
      `INSERT INTO machines (session_id, id, ip, platform, facts) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (session_id, id) DO UPDATE SET ip = EXCLUDED.ip, platform = EXCLUDED.platform,
         facts = COALESCE(EXCLUDED.facts, machines.facts)`,
      [row.session_id, row.id, row.ip, row.platform, row.facts && JSON.stringify(row.facts)],
    );
  }

  async listMachines(sessionId: string): Promise<MachineRow[]> {
    return this.db.query<MachineRow>("SELECT * FROM machines WHERE session_id = $1 ORDER BY id", [sessionId]);
  }

  async getHostKey(sessionId: string, machineId: string): Promise<string | undefined> {
    const rows = await this.db.query<{ host_key: string | null }>(
      "SELECT host_key FROM machines WHERE session_id = $1 AND id = $2",
      [sessionId, machineId],
    );
    return rows[0]?.host_key ?? undefined;
  }

  /** Records a host key on first use only: a key already recorded is never replaced here. */
  async setHostKey(sessionId: string, machineId: string, fingerprint: string): Promise<void> {
    await this.db.query(
      `INSERT INTO machines (session_id, id, ip, platform, host_key) VALUES ($1, $2, '', '', $3)
       ON CONFLICT (session_id, id) DO UPDATE SET host_key = COALESCE(machines.host_key, EXCLUDED.host_key)`,
      [sessionId, machineId, fingerprint],
    );
  }

  async recordResource(row: Omit<ResourceRow, "destroyed_at" | "created">): Promise<void> {
    await this.db.query(
      `INSERT INTO resources (session_id, provider_name, kind, resource_id, meta_sealed, created) VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (session_id, kind, resource_id) DO UPDATE SET meta_sealed = EXCLUDED.meta_sealed, destroyed_at = NULL`,
      [row.session_id, row.provider_name, row.kind, row.resource_id, row.meta_sealed],
    );
  }

  async markResourceDestroyed(sessionId: string, kind: string, resourceId: string): Promise<void> {
    await this.db.query(
      "UPDATE resources SET destroyed_at = now() WHERE session_id = $1 AND kind = $2 AND resource_id = $3 AND destroyed_at IS NULL",
      [sessionId, kind, resourceId],
    );
  }

  /** Resources not destroyed, counted by configuration, driver and kind: a few rows per cloud session are scanned. */
  async liveResourceCounts(): Promise<LiveResourceCount[]> {
    const rows = await this.db.query<{ provider: string; driver: string | null; kind: string; n: string | number }>(
      `SELECT r.provider_name AS provider, s.driver, r.kind, count(*) AS n
         FROM resources r LEFT JOIN sessions s ON s.id = r.session_id
        WHERE r.destroyed_at IS NULL
        GROUP BY r.provider_name, s.driver, r.kind`,
    );
    return rows.map((r) => ({ provider: r.provider, driver: r.driver ?? "", kind: r.kind, count: Number(r.n) }));
  }

  async liveResources(sessionId: string): Promise<ResourceRow[]> {
    return this.db.query<ResourceRow>(
      "SELECT * FROM resources WHERE session_id = $1 AND destroyed_at IS NULL ORDER BY seq",
      [sessionId],
    );
  }

  // ---- step leases: one owner follows a running step, and proves it is alive by renewing

  async getStep(key: StepKey): Promise<StepRow | undefined> {
    return (await this.db.query<StepRow>("SELECT * FROM steps WHERE execution_id = $1 AND step = $2 AND attempt = $3", [key.execution_id, key.step, key.attempt]))[0];
  }

  /** Takes a running step whose lease is free or has run out; null when someone alive holds it or it ended. */
  async claimStep(key: StepKey, owner: string, leaseMs: number): Promise<StepRow | null> {
    const rows = await this.db.query<StepRow>(
      `UPDATE steps SET owner = $4, lease_until = now() + $5 * interval '1 millisecond'
       WHERE execution_id = $1 AND step = $2 AND attempt = $3 AND state = 'running'
         AND (owner IS NULL OR lease_until IS NULL OR lease_until < now() OR owner = $4)
       RETURNING *`,
      [key.execution_id, key.step, key.attempt, owner, leaseMs],
    );
    return rows[0] ?? null;
  }

  /** Extends the lease; null when it was lost (taken over, or the step ended). Says whether the session is still active. */
  async renewLease(key: StepKey, owner: string, leaseMs: number): Promise<{ sessionActive: boolean } | null> {
    const rows = await this.db.query<{ session_state: string }>(
      `UPDATE steps s SET lease_until = now() + $5 * interval '1 millisecond'
       FROM executions e JOIN sessions ss ON ss.id = e.session_id
       WHERE s.execution_id = $1 AND s.step = $2 AND s.attempt = $3 AND s.state = 'running' AND s.owner = $4 AND e.id = s.execution_id
       RETURNING ss.state AS session_state`,
      [key.execution_id, key.step, key.attempt, owner, leaseMs],
    );
    return rows[0] ? { sessionActive: rows[0].session_state === "active" } : null;
  }

  /** Hands a process's steps back: others may take them at once. `owner` unset frees every lease (a lone embedded server at start). */
  async releaseLeases(owner?: string): Promise<number> {
    const rows = await this.db.query(
      `UPDATE steps SET owner = NULL, lease_until = NULL WHERE state = 'running' AND owner IS NOT NULL AND ($1::text IS NULL OR owner = $1) RETURNING attempt`,
      [owner ?? null],
    );
    return rows.length;
  }

  /** Running steps of these executions whose owner is alive (its lease holds). */
  async heldSteps(executionIds: string[]): Promise<StepKey[]> {
    return this.db.query<StepKey>(
      `SELECT execution_id, step, attempt FROM steps
       WHERE state = 'running' AND execution_id = ANY($1) AND owner IS NOT NULL AND lease_until >= now()`,
      [executionIds],
    );
  }

  /** Running steps that nobody holds: never claimed, handed back, or whose owner stopped renewing. */
  async orphanedSteps(limit: number): Promise<StepKey[]> {
    return this.db.query<StepKey>(
      `SELECT execution_id, step, attempt FROM steps
       WHERE state = 'running' AND (owner IS NULL OR lease_until IS NULL OR lease_until < now())
       ORDER BY started LIMIT $1`,
      [limit],
    );
  }

  /**
   * Records which machine's part is under way and its detached process, so a new owner can
   * re-attach. Whether the step's session is still active, as the part is about to start; null
   * when this owner no longer holds a running step (taken over, or ended by a DELETE).
   */
  async recordStepHandle(
    key: StepKey,
    owner: string,
    handle: { machine_id: string; role?: string; repetition?: number; pgid: number | null; machine_log_start: number; metrics: StoredMetric[] },
  ): Promise<{ sessionActive: boolean } | null> {
    const rows = await this.db.query<{ session_state: SessionState }>(
      `UPDATE steps s SET machine_id = $5, pgid = $6, machine_log_start = $7, metrics = $8, repetition = $9, role = $10
       FROM executions e JOIN sessions ss ON ss.id = e.session_id
       WHERE s.execution_id = $1 AND s.step = $2 AND s.attempt = $3 AND s.owner = $4 AND s.state = 'running' AND e.id = s.execution_id
       RETURNING ss.state AS session_state`,
      [
        key.execution_id,
        key.step,
        key.attempt,
        owner,
        handle.machine_id,
        handle.pgid,
        handle.machine_log_start,
        JSON.stringify(handle.metrics),
        handle.repetition ?? null,
        handle.role ?? null,
      ],
    );
    return rows[0] ? { sessionActive: rows[0].session_state === "active" } : null;
  }

  /** Whether the session is active (not being deleted, nor deleted). */
  async sessionActive(sessionId: string): Promise<boolean> {
    const [row] = await this.db.query<{ state: SessionState }>("SELECT state FROM sessions WHERE id = $1", [sessionId]);
    return row?.state === "active";
  }

  /** A snapshot of every table, for tests that assert a failed request changed nothing. */
  async snapshot(): Promise<string> {
    const parts: unknown[] = [];
    for (const table of ["sessions", "executions", "steps", "machines", "resources", "events"]) {
      parts.push(await this.db.query(`SELECT * FROM ${table} ORDER BY 1, 2`));
    }
    return JSON.stringify(parts);
  }
}

/** Why a step ended failed when its session's DELETE began while it ran. */
export const SESSION_DELETED = "the session was deleted while the step ran";

const FAILED_STATE: Record<StepKind, ExecutionState> = { prepare: "prepare_failed", run: "run_failed" };

/**
 * Whether the execution's session is active, its row held (shared) until the transaction
 * ends: a DELETE's move to `deleting` waits for it, and it for that move.
 */
async function sessionActive(tx: Db, executionId: string): Promise<boolean> {
  const [row] = await tx.query<{ state: SessionState }>(
    "SELECT s.state FROM executions e JOIN sessions s ON s.id = e.session_id WHERE e.id = $1 FOR SHARE OF s",
    [executionId],
  );
  return row?.state === "active";
}

const EXECUTION_COLUMNS = "id, session_id, tool_id, workload_id, test, params, repetitions, state, created, exec_env, metrics";

/** A session as its view shows it: never its sealed configuration. */
export type SessionSummary = Omit<SessionRow, "config_sealed">;
const SESSION_SUMMARY_COLUMNS = "id, provider_name, service_type, provider_class, driver, region, state, created, deleted_at";

/** A step attempt as an execution's view shows it. */
export type StepSummary = Pick<StepRow, "step" | "attempt" | "state" | "started" | "duration" | "exit_code" | "error">;
const STEP_SUMMARY_FIELDS = ["step", "attempt", "state", "started", "duration", "exit_code", "error"].map((f) => `'${f}', s.${f}`).join(", ");

export interface ExecutionWithSteps extends ExecutionRow {
  steps: StepSummary[];
  /** Its place in creation order (a bigint, as text): where a page of executions starts. */
  seq: string;
}

/** One successful run attempt of an execution (see Store.runMetrics); `attempt` and after are null for an execution without one. */
export interface RunMetricsRow {
  seq: string;
  execution_id: string;
  session_id: string;
  provider_name: string;
  service_type: string;
  tool_id: string;
  workload_id: string;
  params: Record<string, ParamValue>;
  exec_env: { vms: VmRecord[] };
  attempt: number | null;
  started: Date | null;
  metrics: StoredMetric[] | null;
}

/** What a step.finished event says: as the step attempt resource says it, no more. */
function stepFinished(step: StepKind, attempt: number, started: Date, result: StepEnd) {
  return {
    step,
    attempt,
    state: result.state,
    started: formatTimestamp(started),
    duration: formatDuration(result.duration),
    exit_code: result.exit_code,
    ...(result.state === "failed" ? { error: { code: result.error_code ?? "step_failed", detail: result.error ?? "" } } : {}),
    ...(result.metrics ? { metrics: metricsView(result.metrics) } : {}),
  };
}
