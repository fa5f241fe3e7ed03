import { checkDefinition } from "@benchwright/catalog";
import { BenchwrightProblemError, type Benchmark, type BenchmarkDefinitionDocument } from "@benchwright/sdk";
import { print, printJson, type Context } from "../context.js";
import { UsageError } from "../exit-codes.js";
import { failureOf } from "../failure.js";
import { table } from "../tables.js";
import { readYamlFile } from "../yaml-file.js";

/**
 * The definition in a file and its problems, checked here as the server checks it (the
 * catalogue's own check, and each script by `bash -n`): no server is needed to find them.
 */
async function checkedFile(file: string): Promise<{ document: Record<string, unknown>; problems: Array<{ pointer: string; message: string }> }> {
  const document = await readYamlFile(file);
  if (!document || typeof document !== "object" || Array.isArray(document)) throw new UsageError(`${file} holds no mapping (a benchmark definition)`);
  return { document: document as Record<string, unknown>, problems: checkDefinition(document, file).problems };
}

function refused(file: string, problems: Array<{ pointer: string; message: string }>): UsageError {
  return new UsageError(`${file} is not a benchmark definition the catalogue takes:\n${problems.map((p) => `  ${p.pointer || "/"}: ${p.message}`).join("\n")}`);
}

/** `benchwright benchmark validate <file>`: 0 when the catalogue takes it, else 2 with every problem at its JSON Pointer. */
export async function benchmarkValidateCommand(file: string, ctx: Pick<Context, "json">): Promise<number> {
  const { document, problems } = await checkedFile(file);
  if (problems.length) throw refused(file, problems);
  if (ctx.json) printJson({ id: document.id, valid: true });
  else print(`${file}: benchmark definition ${String(document.id)} is valid.`);
  return 0;
}

/** `benchwright benchmark push <file>`: checked here first, then written through the API (admin) as the definition's next version. */
export async function benchmarkPushCommand(file: string, ctx: Context): Promise<number> {
  const { document, problems } = await checkedFile(file);
  if (problems.length) throw refused(file, problems);
  const view = await ctx.bw.putBenchmark(String(document.id), document as BenchmarkDefinitionDocument).catch((e: unknown) => {
    if (e instanceof BenchwrightProblemError && (e.code === "invalid_definition" || e.code === "read_only"))
      throw new UsageError(failureOf(e, ctx.url).message);
    throw e;
  });
  if (ctx.json) printJson(view);
  else print(`Benchmark definition ${view.id} stored, version ${view.version} (${view.digest}).`);
  return 0;
}

/** `benchwright benchmark ls`: every benchmark, where it comes from and its version. */
export async function benchmarkLsCommand(ctx: Context): Promise<number> {
  const benchmarks = await ctx.bw.listBenchmarks();
  if (ctx.json) {
    printJson(benchmarks);
    return 0;
  }
  print(
    table(
      ["id", "name", "workloads", "source", "version"],
      benchmarks.map((b) => [b.id, b.tool_name, String(b.workloads.length), b.source ?? "", String(b.version ?? "")]),
    ),
  );
  return 0;
}

/** `benchwright benchmark show <id>`: one benchmark, its workloads, and a team's definition's versions. */
export async function benchmarkShowCommand(id: string, ctx: Context): Promise<number> {
  const view = await ctx.bw.getBenchmark(id);
  const versions = view.source === "api" ? await ctx.bw.listBenchmarkVersions(view.id) : [];
  if (ctx.json) {
    printJson({ ...view, versions });
    return 0;
  }
  print(showText(view));
  if (versions.length)
    print(
      table(
        ["version", "digest", "written", "by"],
        versions.map((v) => [String(v.version), v.digest, v.created, v.created_by ?? ""]),
      ),
    );
  return 0;
}

function showText(b: Benchmark): string {
  return [
    `${b.id}: ${b.tool_name}, ${b.source ?? "?"}${b.read_only ? " (read-only)" : ""}, version ${b.version ?? 1}${b.updated ? `, written ${b.updated} by ${b.updated_by ?? "?"}` : ""}`,
    `digest: ${b.digest ?? ""}`,
    `workloads: ${b.workloads.map((w) => w.id).join(", ")}`,
  ].join("\n");
}
