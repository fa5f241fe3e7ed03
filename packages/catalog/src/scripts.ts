import { CatalogError } from "./errors.js";
import { pickScript } from "./platform.js";
import type { StepScriptOptions, ToolDefinition, WorkloadDefinition } from "./types.js";

// Only text from the definitions, the prelude and the fixed lines below goes into a script;
// ids are safe inside double quotes because they match ID_PATTERN.

function header(step: string, tool: ToolDefinition, workload: WorkloadDefinition): string[] {
  return ["#!/usr/bin/env bash", `# Benchwright ${step} step: tool ${tool.id}, workload ${workload.id}`, "set -euo pipefail"];
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

/**
 * A workload's scripts as one role sees them: its own (`run@server`) over the shared ones
 * (`run`), keyed without the role. Without a role, the shared ones alone.
 */
function roleScripts(scripts: Record<string, string>, role: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, script] of Object.entries(scripts)) if (!key.includes("@")) out[key] = script;
  if (role === undefined) return out;
  const suffix = `@${role}`;
  for (const [key, script] of Object.entries(scripts)) if (key.endsWith(suffix)) out[key.slice(0, -suffix.length)] = script;
  return out;
}

/** A role's scripts, for a workload that has roles; the role must be one of them. */
function scriptsOf(tool: ToolDefinition, workload: WorkloadDefinition, opts: StepScriptOptions): Record<string, string> {
  if (opts.role !== undefined && !(workload.roles && Object.hasOwn(workload.roles, opts.role))) {
    throw new CatalogError("no_script", `${tool.source}: workload '${workload.id}' of '${tool.id}' has no role '${opts.role}'`, {
      file: tool.source,
    });
  }
  return roleScripts(workload.scripts, opts.role);
}

function roleLine(opts: StepScriptOptions): string[] {
  return opts.role === undefined ? [] : [`# role: ${opts.role}`];
}

export function buildPrepareScript(prelude: string, tool: ToolDefinition, workload: WorkloadDefinition, opts: StepScriptOptions): string {
  return [
    ...header("prepare", tool, workload),
    ...roleLine(opts),
    `export BW_ALLOW_INSTALL=${opts.allowInstall ? 1 : 0}`,
    "",
    prelude.replace(/\s+$/, ""),
    ...section(`${tool.id} library`, tool.scripts.lib),
    ...installSection(tool, opts),
    ...section("workload prepare", pickScript(scriptsOf(tool, workload, opts), "prepare", opts.platform)?.script),
    "",
  ].join("\n");
}

export function buildRunScript(prelude: string, tool: ToolDefinition, workload: WorkloadDefinition, opts: StepScriptOptions): string {
  const run = pickScript(scriptsOf(tool, workload, opts), "run", opts.platform);
  if (!run) {
    throw new CatalogError(
      "no_script",
      `${tool.source}: workload '${workload.id}' of '${tool.id}' has no run script for platform '${opts.platform}'${opts.role === undefined ? "" : ` and role '${opts.role}'`}`,
      { file: tool.source },
    );
  }
  return [
    ...header("run", tool, workload),
    ...roleLine(opts),
    "",
    prelude.replace(/\s+$/, ""),
    ...section(`${tool.id} library`, tool.scripts.lib),
    ...section(`workload run (${run.key})`, run.script),
    "",
  ].join("\n");
}
