import type { components } from "./generated/schema.js";
import type { Problem } from "./generated/schema-types.js";

export type { components, operations, paths } from "./generated/schema.js";
// The schemas the contract names (scripts/build.mjs copies its list in); below, the names only the SDK gives.
export type * from "./generated/schema-types.js";

type Schemas = components["schemas"];

export type ProblemCode = Problem["code"];
/** One entry of the server's event log, as `events()` yields it; `type` says which `data` it has. */
export type BenchwrightEvent = Schemas["Event"];
