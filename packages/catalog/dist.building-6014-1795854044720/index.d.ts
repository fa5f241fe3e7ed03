export { loadCatalog } from "./catalog.js";
export { paramEnv } from "./params.js";
export { installedPackages } from "./tool-version.js";
export type { Catalog, Metric, ParamDeclaration, ParamValue, RoleDefinition, ToolDefinition, ToolVersionQuery } from "./types.js";
