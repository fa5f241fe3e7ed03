import type { Catalog, ToolDefinition } from "@benchwright/catalog";
import type { CatalogSource } from "../catalog-source.js";

/** The tool of the catalogue, other than `own`, that answers to `name` by its id or by one of its aliases. */
function toolNamed(catalog: Catalog, name: string, own?: ToolDefinition): ToolDefinition | undefined {
  return catalog.tools().find((t) => t !== own && (t.id === name || (t.aliases ?? []).includes(name)));
}

/** A tool as a refusal names it: built in, a file's, or a team's written through the API. */
export function toolWords(catalogs: CatalogSource, tool: ToolDefinition): string {
  if (catalogs.isBuiltin(tool)) return `the built-in tool '${tool.id}'`;
  if (catalogs.teamDefinitions().some((d) => d.tool === tool)) return `the benchmark '${tool.id}' written through the API`;
  return `the tool '${tool.id}' of a file (${tool.source})`;
}

/**
 * A team's definition takes no name another tool answers to: each of its aliases that does is a
 * problem at its JSON Pointer, as is its id when it is another team definition's alias (a
 * built-in's or a file's name is refused as read-only before). Else a built-in's alias, say
 * idle's `testing`, would silently start running the team's tool.
 */
export function nameClashes(
  catalogs: CatalogSource,
  catalog: Catalog,
  id: string,
  document: Record<string, unknown>,
  own?: ToolDefinition,
): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  const aliases = Array.isArray(document.aliases) ? document.aliases : [];
  aliases.forEach((alias, i) => {
    const other = typeof alias === "string" && alias !== id ? toolNamed(catalog, alias, own) : undefined;
    if (other) problems.push({ path: `/body/aliases/${i}`, message: `'${alias}' is already a name of ${toolWords(catalogs, other)}` });
  });
  const aliased = toolNamed(catalog, id, own);
  if (aliased && aliased.id !== id && catalogs.teamDefinitions().some((d) => d.tool === aliased)) {
    problems.push({ path: "/body/id", message: `'${id}' is an alias of ${toolWords(catalogs, aliased)}` });
  }
  return problems;
}
