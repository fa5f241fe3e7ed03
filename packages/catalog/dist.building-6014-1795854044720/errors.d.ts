export type CatalogErrorCode = "invalid_definition" | "unknown_tool" | "unknown_workload" | "no_script";
/**
 * The one error of the catalog. `code` lets the engine map it to its own problem codes
 * (`unknown_tool`, `unknown_workload`, `invalid_configuration`); `choices` lists valid ids.
 *
 * @example throw new CatalogError("unknown_tool", "No tool 'sysbenc'", { choices: ["idle", "sysbench"] })
 */
export declare class CatalogError extends Error {
    readonly code: CatalogErrorCode;
    readonly file?: string;
    readonly choices?: string[];
    constructor(code: CatalogErrorCode, message: string, extras?: {
        file?: string;
        choices?: string[];
    });
}
