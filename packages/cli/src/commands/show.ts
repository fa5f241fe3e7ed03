import { BenchwrightProblemError, type Execution } from "@benchwright/sdk";
import { print, printJson, type Context } from "../context.js";
import { codeMeasuredText } from "../branch-text.js";
import { resolveExecutionId } from "../ids.js";
import { metricsTable, stepsTable, table, tagsText } from "../tables.js";

/** What produced the metrics (the last successful run's provenance), one fact a line. */
function provenanceText(p: Execution["provenance"]): string {
  if (!p) return "";
  const installed = p.packages.map((x) => `${x.name} ${x.version} on ${x.machine}`).join(", ");
  return [
    `installed: ${installed || "nothing recorded"}`,
    `definition: ${p.definition_digest}`,
    ...p.scripts.map((s) => `script on ${s.machine}${s.role ? ` (${s.role})` : ""}: ${s.digest}`),
    `benchwright: ${p.benchwright_version}`,
  ].join("\n");
}

/** The session's id and, unless it is open, its state: a deleted session answers 410 with when it was deleted. */
async function sessionText(ctx: Context, id: string): Promise<string> {
  try {
    const { state } = await ctx.bw.getSession(id, { fields: "state" });
    return state === "active" ? id : `${id} (${state})`;
  } catch (error) {
    if (!(error instanceof BenchwrightProblemError)) throw error;
    const when = error.problem.deleted;
    if (error.code === "session_gone") return `${id} (deleted${when ? ` ${when}` : ""}; its results stay)`;
    // An older server forgets a deleted session (404); another principal's session is not ours to read (403).
    if (error.status === 404 || error.status === 403) return id;
    throw error;
  }
}

/** `benchwright show <execution-id>`: the record, its steps and the metrics of its last successful run. */
export async function showCommand(execId: string, ctx: Context): Promise<number> {
  const e = await ctx.bw.getExecution(await resolveExecutionId(ctx, execId));
  if (ctx.json) {
    printJson(e);
    return 0;
  }
  const machines = e.exec_env.vms.map((vm) => {
    const f = vm.facts;
    const facts = f
      ? [
          f.cpu_model,
          f.cpu_count && `${f.cpu_count} CPUs`,
          f.memory_bytes && `${(f.memory_bytes / 2 ** 30).toFixed(1)} GiB`,
          f.os_release,
          // A cloud's image, type and zone; a host's image is its OS release, said already.
          f.image !== f.os_release && f.image,
          f.instance_type,
          f.zone,
        ]
          .filter(Boolean)
          .join(", ")
      : "";
    return `${vm.id} ${vm.ip} ${vm.platform}${facts ? ` (${facts})` : ""}`;
  });
  print(
    table(
      ["FIELD", "VALUE"],
      [
        ["id", e.id],
        ["session", await sessionText(ctx, e.session_id)],
        ["benchmark", `${e.test.tool_id}/${e.test.workload_id} (${e.test.tool_name}: ${e.test.workload_name})`],
        ["params", tagsText(Object.fromEntries(Object.entries(e.params ?? {}).map(([k, v]) => [k, String(v)]))) || "(defaults)"],
        ["state", e.state],
        ["created", e.created],
        // The code it measured, when its client (a CI's job, a plan run's) named it.
        ...(e.branch || e.commit ? [["code", codeMeasuredText(e) ?? ""] as [string, string]] : []),
        ["machines", machines.join("\n") || "(none yet)"],
        ["provenance", provenanceText(e.provenance) || "(no run recorded one)"],
      ],
    ),
  );
  print("\nSteps");
  print(stepsTable(e));
  print("\nMetrics");
  print(metricsTable(e.metrics));
  return 0;
}
