import { CatalogError } from "./errors.js";
import { pickScript } from "./platform.js";
import type { StepScriptOptions, ToolDefinition, WorkloadDefinition } from "./types.js";

// Only text from the definitions, the prelude and the fixed lines below goes into a script;
// ids are safe inside double quotes because they match ID_PATTERN.

function header(step: string, tool: ToolDefinition, workload: WorkloadDefinition): string[] {
  return [
    "#!/usr/bin/env bash",
    `# Benchwright ${step} step: tool ${tool.id}, workload ${workload.id}`,
    "set -euo pipefail",
  ];
}

function section(title: string, body: string | undefined): string[] {
  if (body === undefined || body.trim() === "") return [];
  return ["", `# ---- ${title} ----`, body.replace(/\s+$/, "")];
}

function installSection(tool: ToolDefinition, opts: StepScriptOptions): string[] {
  const check = tool.scripts.check?.trim() ? tool.scripts.check : undefined;
  const install = pickScript(tool.scripts, "install", opts.platform);
  if (!check && !install) return [];
  const lines = ["", "# ---- tool install ----"];
  if (!check) return [...lines, install!.script.replace(/\s+$/, "")];
  lines.push("bw_check() {", check.replace(/\s+$/, ""), "}");
  lines.push("if bw_check >/dev/null 2>&1; then");
  lines.push(`  bw_log "${tool.id} is already installed; skipping its install script"`);
  lines.push("else");
  if (install) {
    lines.push(`  bw_log "installing ${tool.id} (${install.key})"`);
    lines.push(install.script.replace(/\s+$/, ""));
    lines.push("  if ! bw_check >/dev/null 2>&1; then");
    lines.push(`    echo "${tool.id} is still missing after its install script ran" >&2`);
    lines.push("    exit 101");
    lines.push("  fi");
  } else {
    lines.push(`  echo "${tool.id} is not installed, and the catalog has no install script for this platform" >&2`);
    lines.push("  exit 101");
  }
  lines.push("fi");
  return lines;
}

export function buildPrepareScript(
  prelude: string,
  tool: ToolDefinition,
  workload: WorkloadDefinition,
  opts: StepScriptOptions,
): string {
  return [
    ...header("prepare", tool, workload),
    `export BW_ALLOW_INSTALL=${opts.allowInstall ? 1 : 0}`,
    "",
    prelude.replace(/\s+$/, ""),
    ...section(`${tool.id} library`, tool.scripts.lib),
    ...installSection(tool, opts),
    ...section("workload prepare", pickScript(workload.scripts, "prepare", opts.platform)?.script),
    "",
  ].join("\n");
}

export function buildRunScript(
  prelude: string,
  tool: ToolDefinition,
  workload: WorkloadDefinition,
  opts: StepScriptOptions,
): string {
  const run = pickScript(workload.scripts, "run", opts.platform);
  if (!run) {
    throw new CatalogError(
      "no_script",
      `${tool.source}: workload '${workload.id}' of '${tool.id}' has no run script for platform '${opts.platform}'`,
      { file: tool.source },
    );
  }
  return [
    ...header("run", tool, workload),
    "",
    prelude.replace(/\s+$/, ""),
    ...section(`${tool.id} library`, tool.scripts.lib),
    ...section(`workload run (${run.key})`, run.script),
    "",
  ].join("\n");
}
