import { pickScript } from "./platform.js";
import type { ToolDefinition, ToolVersionQuery } from "./types.js";

/** The system packages an install script names, by package manager. */
export interface ToolPackages {
  deb: string[];
  rpm: string[];
}

// A literal package name: nothing a shell would expand or split, so names can go into a command.
const PACKAGE = /^[A-Za-z0-9][A-Za-z0-9+._:~-]*$/;
const INSTALLER = /(?:^|[\s;&|(])(bw_apt_install|bw_dnf_install_epel|bw_dnf_install|bw_install)(?=[ \t])/g;

/** The literal names after an installer on its line, up to a shell operator, expansion or quote. */
function literalArgs(rest: string): string[] {
  const line = rest.split(/[\n;&|<>#()`$"'\\]/, 1)[0]!;
  const out: string[] = [];
  for (const word of line.trim().split(/\s+/)) {
    if (!PACKAGE.test(word)) break;
    out.push(word);
  }
  return out;
}

/**
 * The packages an install script installs through the prelude's helpers: `bw_apt_install a b`
 * (deb), `bw_dnf_install[_epel] a b` (rpm), `bw_install deb [rpm]` (both). Names the script
 * computes (`"$pkg"`) are not known here and are left out.
 */
export function packagesOf(script: string): ToolPackages {
  const text = script.replace(/\\\n/g, " ");
  const deb: string[] = [];
  const rpm: string[] = [];
  for (const m of text.matchAll(INSTALLER)) {
    const args = literalArgs(text.slice(m.index + m[0].length));
    if (m[1] === "bw_apt_install") deb.push(...args);
    else if (m[1] === "bw_install") {
      if (args[0]) deb.push(args[0]);
      if (args[0]) rpm.push(args[1] ?? args[0]);
    } else rpm.push(...args);
  }
  return { deb: [...new Set(deb)], rpm: [...new Set(rpm)] };
}

/** The packages the tool's install script for this platform (`install_debian`, ..., `install`) installs. */
export function toolPackages(tool: ToolDefinition, platform: string): ToolPackages {
  const install = pickScript(tool.scripts, "install", platform);
  return install ? packagesOf(install.script) : { deb: [], rpm: [] };
}

// At most this much of what a version script prints is kept: a version, not a log.
const MAX_VERSION_LENGTH = 200;

function firstLine(stdout: string): string | undefined {
  const line = stdout
    .split("\n")
    .map((l) => l.trim())
    .find(Boolean);
  return line ? line.slice(0, MAX_VERSION_LENGTH) : undefined;
}

// Each installed package as `installed <name> <version>`: dpkg-query also lists packages it
// knows that are not installed (`config-files`, `not-installed`), and rpm prints "package x is
// not installed" (its query prints `installed` itself, for the packages it has): no match.
const INSTALLED = /^installed (\S+) (\S+)$/;

/** `sysbench 1.0.20+ds-6`, one per installed package (`a 1, b 2`); undefined when none is installed. */
export function readPackageVersions(stdout: string): string | undefined {
  const found = new Set<string>();
  for (const line of stdout.split("\n")) {
    const m = INSTALLED.exec(line.trim());
    if (m) found.add(`${m[1]} ${m[2]}`);
  }
  return found.size ? [...found].join(", ").slice(0, MAX_VERSION_LENGTH) : undefined;
}

/**
 * The packages in a version `readPackageVersions` wrote (`sysbench 1.0.20+ds-6, libluajit 2.1`),
 * each split at its first space; an entry without one (cut at the length limit) is left out.
 */
export function installedPackages(version: string): Array<{ name: string; version: string }> {
  return version.split(", ").flatMap((entry) => {
    const m = /^(\S+) (\S+)$/.exec(entry.trim());
    return m ? [{ name: m[1]!, version: m[2]! }] : [];
  });
}

function packageQuery({ deb, rpm }: ToolPackages): string {
  const queries: string[] = [];
  if (deb.length) queries.push(`dpkg-query -W -f='\${db:Status-Status} \${Package} \${Version}\\n' ${deb.join(" ")}`);
  if (rpm.length) queries.push(`rpm -q --qf 'installed %{NAME} %{VERSION}-%{RELEASE}\\n' ${rpm.join(" ")}`);
  // dpkg-query fails when one name is unknown, yet prints the others: the rpm query is only
  // for hosts without dpkg. Either way the answer is what was printed.
  return `{ ${queries.join(" || ")}; } 2>/dev/null; exit 0`;
}

/**
 * How the tool's version is read on a machine it was prepared on: the definition's own
 * `version` script for the platform (its first line of output), else the versions of the
 * packages its install script installs. Undefined when there is nothing to ask (no install).
 */
export function toolVersionQuery(prelude: string, tool: ToolDefinition, platform: string): ToolVersionQuery | undefined {
  const own = pickScript(tool.scripts, "version", platform);
  if (own?.script.trim()) {
    const lib = tool.scripts.lib?.trim() ? ["", tool.scripts.lib.replace(/\s+$/, "")] : [];
    // The prelude and the tool's library, as its other scripts have them.
    const script = ["set -euo pipefail", prelude.replace(/\s+$/, ""), ...lib, "", own.script.replace(/\s+$/, ""), ""].join("\n");
    return { script, read: firstLine, source: "script" };
  }
  const packages = toolPackages(tool, platform);
  if (!packages.deb.length && !packages.rpm.length) return undefined;
  return { script: packageQuery(packages), read: readPackageVersions, source: "packages" };
}
