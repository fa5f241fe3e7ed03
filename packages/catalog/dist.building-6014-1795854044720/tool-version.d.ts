import type { ToolDefinition, ToolVersionQuery } from "./types.js";
/** The system packages an install script names, by package manager. */
export interface ToolPackages {
    deb: string[];
    rpm: string[];
}
/**
 * The packages an install script installs through the prelude's helpers: `bw_apt_install a b`
 * (deb), `bw_dnf_install[_epel] a b` (rpm), `bw_install deb [rpm]` (both). Names the script
 * computes (`"$pkg"`) are not known here and are left out.
 */
export declare function packagesOf(script: string): ToolPackages;
/** The packages the tool's install script for this platform (`install_debian`, ..., `install`) installs. */
export declare function toolPackages(tool: ToolDefinition, platform: string): ToolPackages;
/** `sysbench 1.0.20+ds-6`, one per installed package (`a 1, b 2`); undefined when none is installed. */
export declare function readPackageVersions(stdout: string): string | undefined;
/**
 * The packages in a version `readPackageVersions` wrote (`sysbench 1.0.20+ds-6, libluajit 2.1`),
 * each split at its first space; an entry without one (cut at the length limit) is left out.
 */
export declare function installedPackages(version: string): Array<{
    name: string;
    version: string;
}>;
/**
 * How the tool's version is read on a machine it was prepared on: the definition's own
 * `version` script for the platform (its first line of output), else the versions of the
 * packages its install script installs. Undefined when there is nothing to ask (no install).
 */
export declare function toolVersionQuery(prelude: string, tool: ToolDefinition, platform: string): ToolVersionQuery | undefined;
