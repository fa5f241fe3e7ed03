// The contract's examples are the mock's data (`npm run mock`): the dashboard and other clients
// are developed against them, so they must tell one story, and the real catalogue's.
import { loadCatalog } from "@benchwright/catalog";
import { describe, expect, it } from "vitest";
import { loadSpec } from "./index.js";

// biome-ignore lint/suspicious/noExplicitAny: the examples are arbitrary JSON, read by path
type Json = Record<string, any>;
const spec = loadSpec() as Json;
const METHODS = ["get", "put", "post", "delete", "patch"];

/** The object a local `$ref` names, followed through chains of refs. */
function deref(node: Json): Json {
  let seen = 0;
  while (node && typeof node.$ref === "string" && seen++ < 20) {
    node = node.$ref
      .slice(2)
      .split("/")
      .reduce((at: Json, key: string) => at?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], spec);
  }
  return node;
}

interface Operation {
  id: string;
  op: Json;
  params: Json[];
}

function operations(): Operation[] {
  return Object.values(spec.paths as Record<string, Json>).flatMap((item) =>
    METHODS.filter((m) => item[m]).map((m) => ({
      id: item[m].operationId as string,
      op: item[m],
      params: [...(item.parameters ?? []), ...(item[m].parameters ?? [])].map(deref),
    })),
  );
}

/** Every example value of a media type object (named `examples` and a lone `example`). */
function exampleValues(media: Json | undefined): Array<[string, unknown]> {
  if (!media) return [];
  const named = Object.entries((media.examples ?? {}) as Record<string, Json>).map(([name, ex]) => [name, deref(ex).value] as [string, unknown]);
  return media.example === undefined ? named : [...named, ["example", media.example]];
}

/** Every example of the contract where it is used: request bodies and answers of every operation. */
function allExamples(): Array<{ where: string; media: string; value: unknown }> {
  const found: Array<{ where: string; media: string; value: unknown }> = [];
  for (const { id, op } of operations()) {
    const body = op.requestBody ? deref(op.requestBody) : undefined;
    for (const [media, content] of Object.entries((body?.content ?? {}) as Record<string, Json>)) {
      for (const [name, value] of exampleValues(content)) found.push({ where: `${id} request ${name}`, media, value });
    }
    for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
      for (const [media, content] of Object.entries((deref(response).content ?? {}) as Record<string, Json>)) {
        for (const [name, value] of exampleValues(content)) found.push({ where: `${id} ${status} ${name}`, media, value });
      }
    }
  }
  return found;
}

/** Every object within a value, at any depth, with where it was found. */
function objectsIn(value: unknown, where: string, out: Array<[string, Json]> = []): Array<[string, Json]> {
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      objectsIn(v, `${where}[${i}]`, out);
    });
  } else if (value && typeof value === "object") {
    out.push([where, value as Json]);
    for (const [k, v] of Object.entries(value)) objectsIn(v, `${where}.${k}`, out);
  }
  return out;
}

/** The records the text examples hold: CSV and JSON Lines rows, Server-Sent Events' data. */
function textRecords(media: string, text: string): Json[] {
  if (media === "application/x-ndjson")
    return text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
  if (media === "text/event-stream")
    return text
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)));
  if (media === "text/csv") {
    const [header, ...rows] = text.trim().split("\n").map(csvFields);
    return rows.map((row) => Object.fromEntries(header!.map((h, i) => [h, /^(parameters|tags)$/.test(h) ? JSON.parse(row[i]!) : row[i]])));
  }
  return [];
}

function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') (field += '"'), i++;
    else if (c === '"') quoted = !quoted;
    else if (c === "," && !quoted) fields.push(field), (field = "");
    else field += c;
  }
  fields.push(field);
  return fields;
}

/** Every record in the examples, with where it was found: JSON values and the rows of the text ones. */
function records(): Array<[string, Json]> {
  return allExamples().flatMap(({ where, media, value }) =>
    typeof value === "string" ? textRecords(media, value).flatMap((r, i) => objectsIn(r, `${where} (${media} #${i + 1})`)) : objectsIn(value, where),
  );
}

const catalog = loadCatalog({});
const examplesOf = (operationId: string, status: string): unknown[] =>
  allExamples()
    .filter((e) => e.where.startsWith(`${operationId} ${status} `))
    .map((e) => e.value);
const benchmarkList = examplesOf("listBenchmarks", "200")[0] as Json[];
const listed = (tool: string) => benchmarkList.find((b) => b.id === tool || b.aliases?.includes(tool));

/** A tool and workload the examples use, with what they say of it. */
interface Use {
  where: string;
  tool: string;
  workload: string;
  params?: Json;
  complete?: boolean;
}

function uses(): Use[] {
  const found: Use[] = [];
  for (const [where, o] of records()) {
    if (o.test?.tool_id) found.push({ where, tool: o.test.tool_id, workload: o.test.workload_id, params: o.params, complete: true });
    else if (typeof o.tool === "string" && typeof o.workload === "string")
      found.push({
        where,
        tool: o.tool,
        workload: o.workload,
        params: o.params ?? o.parameters,
        complete: "parameters" in o || o.state !== undefined,
      });
    for (const text of [o.detail, o.error].filter((t): t is string => typeof t === "string")) {
      for (const m of text.matchAll(/\bof ([a-z0-9_.-]+)\/([a-z0-9_.-]+)/gi)) found.push({ where, tool: m[1]!, workload: m[2]! });
    }
  }
  for (const value of allExamples().filter((e) => e.where.startsWith("createExecution request ")))
    found.push({ where: value.where, ...(value.value as { tool: string; workload: string; params?: Json }) });
  return found;
}

describe("the contract's examples", () => {
  it("list, in the benchmarks example, every tool and workload the other examples use", () => {
    const missing = uses().filter((u) => !listed(u.tool)?.workloads.some((w: Json) => w.id === u.workload));
    expect(missing.map((u) => `${u.where}: ${u.tool}/${u.workload}`)).toEqual([]);
    for (const tool of ["idle", "sysbench", "fio", "iperf3"]) expect(listed(tool), tool).toBeDefined();
  });

  it("describe the benchmarks as the real catalogue has them: names, parameters, roles, metrics", () => {
    const fromCatalog = (id: string) => {
      const t = catalog.tool(id)!;
      return {
        id: t.id,
        aliases: t.aliases ?? [],
        tool_name: t.tool_name,
        description: t.description,
        workloads: Object.fromEntries(
          t.workloads.map((w) => [
            w.id,
            {
              id: w.id,
              workload_name: w.workload_name,
              workload_description: w.workload_description,
              categories: w.categories,
              params: Object.entries(w.params).map(([name, decl]) => ({ name, ...decl })),
              ...(w.roles ? { roles: Object.entries(w.roles).map(([name, role]) => ({ name, ...role })) } : {}),
            },
          ]),
        ),
        metrics: Object.fromEntries(Object.entries(t.metrics ?? {}).map(([name, meaning]) => [name, { name, ...meaning }])),
      };
    };
    const benchmarks = [...benchmarkList, ...(examplesOf("getBenchmark", "200") as Json[])];
    for (const b of benchmarks) {
      const real = fromCatalog(b.id);
      expect({ ...b, workloads: undefined, metrics: undefined }, b.id).toEqual({ ...real, workloads: undefined, metrics: undefined });
      for (const w of b.workloads) expect(w, `${b.id}/${w.id}`).toEqual(real.workloads[w.id]);
      for (const m of b.metrics) expect(m, `${b.id} ${m.name}`).toEqual(real.metrics[m.name]);
    }
    // The one benchmark's example is that benchmark in the list's.
    for (const b of examplesOf("getBenchmark", "200") as Json[]) expect(b).toEqual(listed(b.id));
  });

  it("name each workload as the benchmarks example does, with parameters it declares, in bounds, defaults filled in", () => {
    const problems: string[] = [];
    for (const u of uses()) {
      const workload = listed(u.tool)?.workloads.find((w: Json) => w.id === u.workload);
      if (!workload) continue;
      const declared = new Map<string, Json>(workload.params.map((p: Json) => [p.name, p]));
      // A plan's benchmark may give a param a list of values: each is checked.
      const given = Object.entries(u.params ?? {}).flatMap(([name, v]) => (Array.isArray(v) ? v.map((x) => [name, x] as const) : [[name, v] as const]));
      for (const [name, value] of given) {
        const d = declared.get(name);
        if (!d) problems.push(`${u.where}: ${u.tool}/${u.workload} declares no parameter ${name}`);
        else if (d.type === "integer" ? !Number.isInteger(value) : d.type === "number" ? typeof value !== "number" : typeof value !== d.type)
          problems.push(`${u.where}: ${name} is not ${d.type}`);
        else if ((d.min !== undefined && (value as number) < d.min) || (d.max !== undefined && (value as number) > d.max))
          problems.push(`${u.where}: ${name} is out of bounds`);
        else if (d.pattern && !new RegExp(d.pattern, "u").test(value as string)) problems.push(`${u.where}: ${name} does not match ${d.pattern}`);
      }
      // A record holds every parameter's value: those given over the workload's defaults.
      if (u.complete)
        for (const name of declared.keys()) if (!(name in (u.params ?? {}))) problems.push(`${u.where}: ${u.tool}/${u.workload} has no value of ${name}`);
    }
    for (const [where, o] of records()) {
      if (!o.test?.tool_id) continue;
      const tool = listed(o.test.tool_id)!;
      const workload = tool.workloads.find((w: Json) => w.id === o.test.workload_id);
      if (!workload) continue;
      const said = { tool_name: o.test.tool_name, workload_name: o.test.workload_name, workload_description: o.test.workload_description };
      const real = {
        tool_name: tool.tool_name,
        workload_name: workload.workload_name,
        workload_description: workload.workload_description,
      };
      if (JSON.stringify(said) !== JSON.stringify(real)) problems.push(`${where}: ${JSON.stringify(said)} is not ${JSON.stringify(real)}`);
    }
    expect(problems).toEqual([]);
  });

  it("report only figures their tool measures, in its units", () => {
    const problems: string[] = [];
    const check = (where: string, tool: string, name: string, unit: string | undefined, better: string | undefined) => {
      const meaning = catalog.tool(tool)?.metrics?.[name];
      if (!meaning) problems.push(`${where}: ${tool} has no metric ${name}`);
      else if ((unit !== undefined && unit !== meaning.unit) || (better !== undefined && better !== meaning.better))
        problems.push(`${where}: ${name} is in ${meaning.unit}, ${meaning.better} is better`);
    };
    for (const [where, o] of records()) {
      if (o.test?.tool_id) for (const m of o.metrics ?? []) check(where, o.test.tool_id, m.name, m.unit, m.better);
      if (typeof o.metric === "string" && typeof o.tool === "string") check(where, o.tool, o.metric, o.unit, undefined);
    }
    const comparison = examplesOf("compareExecutions", "200")[0] as Json;
    for (const m of comparison.metrics) for (const e of comparison.executions) check(`compareExecutions ${m.name}`, e.tool, m.name, m.unit, m.better);
    expect(problems).toEqual([]);
  });

  it("tell of each execution and session the same thing wherever they appear", () => {
    const executions = new Map<string, Array<[string, Json]>>();
    const sessions = new Map<string, Json>();
    for (const [where, o] of records()) {
      if (o.test?.tool_id) executions.set(o.id, [...(executions.get(o.id) ?? []), [where, o]]);
      if (o.provider?.id && Array.isArray(o.executions)) sessions.set(o.id, o);
    }
    const problems: string[] = [];
    const same = (where: string, what: string, a: unknown, b: unknown) => {
      if (JSON.stringify(a) !== JSON.stringify(b)) problems.push(`${where}: ${what} ${JSON.stringify(a)} is not ${JSON.stringify(b)}`);
    };
    for (const [id, seen] of executions) {
      const [, first] = seen[0]!;
      for (const [where, o] of seen) {
        same(where, `execution ${id}'s session`, o.session_id, first.session_id);
        same(where, `execution ${id}'s test`, [o.test.tool_id, o.test.workload_id], [first.test.tool_id, first.test.workload_id]);
        same(where, `execution ${id}'s params`, o.params, first.params);
        same(where, `execution ${id}'s created`, o.created, first.created);
      }
    }
    for (const [sid, s] of sessions) for (const e of s.executions) same(`session ${sid}`, `execution ${e.id}'s session`, e.session_id, sid);
    // What other records say of an execution: the comparison's, the export's rows, the events'.
    for (const [where, o] of records()) {
      const id = o.execution_id ?? (o.test === undefined && typeof o.tool === "string" ? o.id : undefined);
      if (typeof id !== "string" || !(typeof o.tool === "string" || "session_id" in o)) continue;
      const seen = executions.get(id);
      if (!seen) {
        problems.push(`${where}: execution ${id} is in no execution example`);
        continue;
      }
      const [, e] = seen[0]!;
      if (o.session_id !== undefined) same(where, `execution ${id}'s session`, o.session_id, e.session_id);
      if (typeof o.tool === "string") same(where, `execution ${id}'s test`, [o.tool, o.workload], [e.test.tool_id, e.test.workload_id]);
      const params = o.params ?? o.parameters;
      if (params !== undefined) same(where, `execution ${id}'s params`, params, e.params);
      const session = sessions.get(e.session_id);
      if (session && typeof o.provider === "string")
        same(where, `execution ${id}'s provider`, [o.provider, o.service_type], [session.provider.id, session.provider.type]);
      if (typeof o.metric === "string") {
        const figure = e.metrics.find(
          (m: Json) => m.name === o.metric && JSON.stringify(m.tags ?? {}) === JSON.stringify(o.tags) && (m.values ?? [m.value]).includes(Number(o.value)),
        );
        if (!figure) problems.push(`${where}: execution ${id} has no ${o.metric} of ${o.value} at ${JSON.stringify(o.tags)}`);
      }
      if (o.machines)
        same(
          where,
          `execution ${id}'s machines`,
          o.machines.map((m: Json) => m.id),
          e.exec_env.vms.map((v: Json) => v.id),
        );
    }
    // A comparison's figures are the compared executions' repeated values.
    const comparison = examplesOf("compareExecutions", "200")[0] as Json;
    for (const m of comparison.metrics) {
      for (const f of m.figures) {
        const [, e] = executions.get(f.execution_id)?.[0] ?? [];
        const metric = e?.metrics.find((x: Json) => x.name === m.name && JSON.stringify(x.tags ?? {}) === JSON.stringify(m.tags));
        const where = `compareExecutions ${m.name} of ${f.execution_id}`;
        if (!metric) problems.push(`${where}: the execution has no such metric`);
        else {
          same(where, "values", metric.values, f.values);
          same(where, "mean", [metric.value, metric.stats?.mean, metric.stats?.n], [f.mean, f.mean, f.n]);
          same(where, "repetitions", e!.repetitions, { count: f.n });
        }
      }
    }
    expect(problems).toEqual([]);
  });

  // Issue 34, point 20: the mock showed one run pending, running, cancelling and cancelled, its idle
  // cell measured in events_per_second, and a target ranked by the report while its cell was pending.
  it("tell one story of each plan run: one state per run, cells measured in their tool's metrics, none ranked while pending", () => {
    const runs: Array<[string, Json]> = [];
    const reports: Array<[string, Json]> = [];
    for (const [where, o] of records()) {
      if (typeof o.plan_id === "string" && typeof o.state === "string" && Array.isArray(o.cells) && o.progress) runs.push([where, o]);
      if (typeof o.run_id === "string" && Array.isArray(o.cells) && Array.isArray(o.targets)) reports.push([where, o]);
    }
    expect(runs.length).toBeGreaterThan(2);
    expect(reports.length).toBeGreaterThan(0);
    const problems: string[] = [];
    const states = new Map<string, Set<string>>();
    for (const [, run] of runs) states.set(run.id, (states.get(run.id) ?? new Set()).add(run.state));
    for (const [id, seen] of states) if (seen.size > 1) problems.push(`run ${id} is ${[...seen].join(", ")} in different examples`);
    const measures = (tool: string, metric: string) => Boolean(catalog.tool(tool)?.metrics?.[metric]);
    for (const [where, report] of reports) {
      for (const cell of report.cells) {
        for (const name of [cell.main_metric, ...cell.metrics.map((m: Json) => m.name)].filter((n) => typeof n === "string"))
          if (!measures(cell.tool, name)) problems.push(`${where}: cell ${cell.benchmark}/${cell.cell} of ${cell.tool}/${cell.workload} has ${name}`);
      }
      const ranked = new Set(report.targets.filter((t: Json) => t.rank !== null).map((t: Json) => t.target as string));
      for (const [runWhere, run] of runs) {
        if (run.plan_id !== report.plan_id) continue;
        for (const cell of run.cells) {
          // The report's cell at the same place of the plan: the same benchmark, so measured as the run's cell is.
          const same = report.cells.find((c: Json) => c.benchmark === cell.benchmark && c.cell === cell.cell);
          if (same && (same.tool !== cell.tool || same.workload !== cell.workload))
            problems.push(`${runWhere}: cell ${cell.benchmark}/${cell.cell} is ${cell.tool}/${cell.workload}, the report's ${same.tool}/${same.workload}`);
          if (same?.main_metric && !measures(cell.tool, same.main_metric))
            problems.push(`${runWhere}: cell ${cell.benchmark}/${cell.cell} of ${cell.tool}/${cell.workload} is reported in ${same.main_metric}`);
          if (run.id === report.run_id && ranked.has(cell.target) && ["pending", "preparing", "running"].includes(cell.state))
            problems.push(`${runWhere}: ${cell.target} is ${cell.state} in run ${run.id}, yet ranked in its report (${where})`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("give each operation 400 examples of its own, about its own input", () => {
    const problems: string[] = [];
    const messages = new Map<string, string>();
    for (const { id, op, params } of operations()) {
      const response = op.responses?.["400"];
      if (!response) continue;
      const examples = exampleValues(deref(response).content?.["application/problem+json"]) as Array<[string, Json]>;
      if (examples.length === 0) problems.push(`${id}: no 400 example`);
      const body = op.requestBody ? deref(deref(op.requestBody).content?.["application/json"]?.schema ?? {}) : undefined;
      const bodyProperties = new Set<string>(
        [body, ...(body?.oneOf ?? []), ...(body?.anyOf ?? [])].filter(Boolean).flatMap((s: Json) => Object.keys(deref(s).properties ?? {})),
      );
      const inputs: Record<string, Set<string>> = {
        params: new Set(params.filter((p) => p.in === "path").map((p) => p.name)),
        query: new Set(params.filter((p) => p.in === "query").map((p) => p.name)),
        headers: new Set(params.filter((p) => p.in === "header").map((p) => p.name.toLowerCase())),
      };
      for (const [name, value] of examples) {
        const other = messages.get(value.detail);
        if (other && other !== id) problems.push(`${id} ${name}: "${value.detail}" is ${other}'s 400 example too`);
        messages.set(value.detail, id);
        for (const e of value.errors ?? []) {
          const [, where, field] = (e.path as string).split("/");
          const known =
            where === "body"
              ? field === undefined
                ? body !== undefined
                : bodyProperties.has(field)
              : inputs[where!]?.has(where === "headers" ? field!.toLowerCase() : field!);
          if (!known) problems.push(`${id} ${name}: ${e.path} is no input of ${id}`);
        }
        if (/X-Fields/.test(value.detail) && !inputs.headers!.has("x-fields")) problems.push(`${id} ${name}: ${id} takes no X-Fields`);
      }
    }
    expect(problems).toEqual([]);
  });

  // The mock answers a header with no example as the literal `string` (Link: string), and a
  // media type with no example of its own with another's (an HTML report as the JSON one).
  it("give every response header an example, so that the mock sends a value of the header's form", () => {
    const missing = new Set<string>();
    for (const { id, op } of operations()) {
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        for (const [name, header] of Object.entries((deref(response).headers ?? {}) as Record<string, Json>)) {
          const h = deref(header);
          const schema = deref(h.schema ?? {});
          if (h.example === undefined && h.examples === undefined && schema.example === undefined && !schema.enum) missing.add(`${id} ${status} ${name}`);
        }
      }
    }
    expect([...missing]).toEqual([]);
  });

  it("give every answer that is not JSON (CSV, NDJSON, HTML, text) an example of its own media type", () => {
    const missing: string[] = [];
    for (const { id, op } of operations()) {
      for (const [status, response] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        if (!status.startsWith("2")) continue;
        for (const [media, content] of Object.entries((deref(response).content ?? {}) as Record<string, Json>)) {
          if (media === "application/json" || media.endsWith("+json")) continue;
          if (exampleValues(content).length === 0 && deref(content.schema ?? {}).example === undefined) missing.push(`${id} ${status} ${media}`);
        }
      }
    }
    expect(missing).toEqual([]);
    const report = (deref(spec.paths["/plans/{plan_id}/runs/{run_id}/report"].get.responses["200"]).content as Json)["text/html"];
    expect(String(report.example)).toMatch(/^<!doctype html>/);
  });
});
