import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { installedPackages, type Catalog, type ParamValue, type ToolDefinition } from "@benchwright/catalog";
import type { Provenance, ProvenancePackage } from "@benchwright/contract";
import canonicalize from "canonicalize";
import { BenchwrightError } from "../errors.js";
import type { VmRecord } from "../model/machines.js";

/** `sha256:<hex>` of a text, as UTF-8. */
export function sha256Digest(text: string): string {
  return `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
}

/**
 * The digest of a tool's catalogue definition: SHA-256 of its canonical JSON (RFC 8785: keys
 * sorted, no spaces), so that the same definition gives the same digest whatever the order or
 * layout of its YAML. The file it was read from is left out: a definition copied elsewhere is
 * the same definition.
 */
export function definitionDigest(tool: ToolDefinition): string {
  const { source: _source, ...definition } = tool;
  return sha256Digest(canonicalize(definition)!);
}

// Read once: src/steps/ and dist/steps/ are both two levels below the package's root.
const ENGINE_VERSION: string = createRequire(import.meta.url)("../../package.json").version;

/** The version of the Benchwright engine running this process. */
export function benchwrightVersion(): string {
  return ENGINE_VERSION;
}

/** One part's script of a run, before it is sent: which machine (and role) runs it. */
export interface PartScript {
  machine: string;
  role?: string;
  script: string;
}

/**
 * The tool's packages on each machine, from the `tool_version` its last successful prepare
 * recorded: a definition's own `version` script prints a line about the tool itself (named by
 * the tool's id), else the version is its install script's packages, `name version` each.
 */
function packagesOf(catalog: Catalog, toolId: string, vms: VmRecord[]): ProvenancePackage[] {
  return vms.flatMap((vm) => {
    const version = vm.facts?.tool_version;
    if (typeof version !== "string" || !version) return [];
    const source = catalog.toolVersion(toolId, vm.platform)?.source ?? "packages";
    const found = source === "script" ? [{ name: toolId, version }] : installedPackages(version);
    return found.map((p) => ({ machine: vm.id, ...p }));
  });
}

/** What produces a run's figures: recorded on its attempt before it measures. */
export function runProvenance(input: {
  catalog: Catalog;
  toolId: string;
  workloadId: string;
  vms: VmRecord[];
  params: Record<string, ParamValue>;
  scripts: PartScript[];
  /** The stored version of a team's definition the execution recorded (none for a built-in's or a file's). */
  definitionVersion?: number | null;
}): Provenance {
  const { catalog, toolId, workloadId, vms, params, scripts, definitionVersion } = input;
  const tool = catalog.tool(toolId);
  // Its scripts were built from the same catalogue just before: a tool it lacks failed there.
  if (!tool) throw new BenchwrightError("internal", `no tool '${toolId}' in the catalog to record the provenance of`);
  return {
    // The catalogue's own id: an execution made under an alias ran the tool it names.
    tool: tool.id,
    workload: workloadId,
    packages: packagesOf(catalog, toolId, vms),
    definition_digest: definitionDigest(tool),
    ...(definitionVersion == null ? {} : { definition_version: definitionVersion }),
    params,
    scripts: scripts.map((s) => ({ machine: s.machine, ...(s.role === undefined ? {} : { role: s.role }), digest: sha256Digest(s.script) })),
    benchwright_version: benchwrightVersion(),
  };
}
