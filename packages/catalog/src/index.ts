// What the engine, the server and bench/ import; the rest stays inside the catalogue.
export { builtinDefinitions, loadCatalog } from "./catalog.js";
export { checkDefinition, readDefinition } from "./check-definition.js";
export { paramEnv } from "./params.js";
export { installedPackages } from "./tool-version.js";
export { parseYaml } from "./yaml-parse.js";
export type { Catalog, Metric, ParamDeclaration, ParamValue, RoleDefinition, ToolDefinition, ToolVersionQuery } from "./types.js";
