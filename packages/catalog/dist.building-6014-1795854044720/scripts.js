import { CatalogError } from "./errors.js";
import { pickScript } from "./platform.js";
function header(step, tool, workload) {
  return ["#!/usr/bin/env bash", `# Benchwright ${step} step: tool ${tool.id}, workload ${workload.id}`, "set -euo pipefail"];
}
function section(title, body) {
  if (body === void 0 || body.trim() === "") return [];
  return ["", `# ---- ${title} ----`, body.replace(/\s+$/, "")];
}
function installSection(tool, opts) {
  const check = tool.scripts.check?.trim() ? tool.scripts.check : void 0;
  const install = pickScript(tool.scripts, "install", opts.platform);
  if (!check && !install) return [];
  const lines = ["", "# ---- tool install ----"];
  if (!check) return [...lines, install.script.replace(/\s+$/, "")];
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
function roleScripts(scripts, role) {
  const out = {};
  for (const [key, script] of Object.entries(scripts)) if (!key.includes("@")) out[key] = script;
  if (role === void 0) return out;
  const suffix = `@${role}`;
  for (const [key, script] of Object.entries(scripts)) if (key.endsWith(suffix)) out[key.slice(0, -suffix.length)] = script;
  return out;
}
function scriptsOf(tool, workload, opts) {
  if (opts.role !== void 0 && !(workload.roles && Object.hasOwn(workload.roles, opts.role))) {
    throw new CatalogError("no_script", `${tool.source}: workload '${workload.id}' of '${tool.id}' has no role '${opts.role}'`, {
      file: tool.source
    });
  }
  return roleScripts(workload.scripts, opts.role);
}
function roleLine(opts) {
  return opts.role === void 0 ? [] : [`# role: ${opts.role}`];
}
function buildPrepareScript(prelude, tool, workload, opts) {
  return [
    ...header("prepare", tool, workload),
    ...roleLine(opts),
    `export BW_ALLOW_INSTALL=${opts.allowInstall ? 1 : 0}`,
    "",
    prelude.replace(/\s+$/, ""),
    ...section(`${tool.id} library`, tool.scripts.lib),
    ...installSection(tool, opts),
    ...section("workload prepare", pickScript(scriptsOf(tool, workload, opts), "prepare", opts.platform)?.script),
    ""
  ].join("\n");
}
function buildRunScript(prelude, tool, workload, opts) {
  const run = pickScript(scriptsOf(tool, workload, opts), "run", opts.platform);
  if (!run) {
    throw new CatalogError(
      "no_script",
      `${tool.source}: workload '${workload.id}' of '${tool.id}' has no run script for platform '${opts.platform}'${opts.role === void 0 ? "" : ` and role '${opts.role}'`}`,
      { file: tool.source }
    );
  }
  return [
    ...header("run", tool, workload),
    ...roleLine(opts),
    "",
    prelude.replace(/\s+$/, ""),
    ...section(`${tool.id} library`, tool.scripts.lib),
    ...section(`workload run (${run.key})`, run.script),
    ""
  ].join("\n");
}
export {
  buildPrepareScript,
  buildRunScript
};
//# sourceMappingURL=scripts.js.map
