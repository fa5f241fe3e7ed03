/** One problem of a definition: where (dotted, `""` for the whole document) and what. */
export interface DefinitionProblem {
  path: string;
  message: string;
}

export type CatalogErrorCode = "invalid_definition" | "unknown_tool" | "unknown_workload" | "no_script";

/**
 * The one error of the catalog. `code` lets the engine map it to its own problem codes
 * (`unknown_tool`, `unknown_workload`, `invalid_configuration`); `choices` lists valid ids.
 *
 * @example throw new CatalogError("unknown_tool", "No tool 'sysbenc'", { choices: ["idle", "sysbench"] })
 */
export class CatalogError extends Error {
  readonly file?: string;
  readonly choices?: string[];
  /** An invalid definition's problems, each at its place (`workloads[0].scripts.run`, as the message lists it). */
  readonly problems?: DefinitionProblem[];
  constructor(
    readonly code: CatalogErrorCode,
    message: string,
    extras: { file?: string; choices?: string[]; problems?: DefinitionProblem[] } = {},
  ) {
    super(message);
    this.name = "CatalogError";
    this.file = extras.file;
    this.choices = extras.choices;
    this.problems = extras.problems;
  }
}
