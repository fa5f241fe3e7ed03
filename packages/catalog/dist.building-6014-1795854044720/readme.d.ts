import type { Catalog, ToolDefinition } from "./types.js";
/** The README section between these lines is written by `scripts/generate-readme.mjs`. */
export declare const README_BEGIN = "<!-- BEGIN GENERATED: built-in catalog (npm run readme -w @benchwright/catalog) -->";
export declare const README_END = "<!-- END GENERATED: built-in catalog -->";
/** The Debian packages the tool's install script names (`bw_apt_install a b`, else `bw_install a`). */
export declare function debianPackages(tool: ToolDefinition): string[];
/** The README's reference of the built-in tools, workloads, parameters, roles and figures. */
export declare function renderCatalogReference(catalog: Catalog): string;
/** The README with its generated section replaced; throws when the markers are missing. */
export declare function replaceGenerated(readme: string, section: string): string;
