export { loadCatalog, BUILTIN_TOOLS_DIR } from "./catalog.js";
export { CatalogError, type CatalogErrorCode } from "./errors.js";
export { ID_PATTERN, DEFAULT_TIMEOUT } from "./definition.js";
export { parsers, getParser } from "./parsers/index.js";
export { MAX_STRING_PARAM, PARAM_NAME, paramEnv, resolveParams, type ParamProblem } from "./params.js";
export { normalizePlatform, platformCandidates, pickScript } from "./platform.js";
export type {
  Catalog,
  CatalogErrorReporter,
  LoadCatalogOptions,
  Better,
  Metric,
  ParamDeclaration,
  ParamType,
  ParamValue,
  MetricMeaning,
  Parser,
  RoleDefinition,
  StepScriptOptions,
  ToolDefinition,
  WorkloadDefinition,
} from "./types.js";
