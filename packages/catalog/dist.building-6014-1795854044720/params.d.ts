import type { ParamDeclaration, ParamProblem, ParamValue } from "./types.js";
/** Longest string value: it travels in the step's env.sh, and a limit keeps that small. */
export declare const MAX_STRING_PARAM = 1024;
type Raw = Record<string, unknown>;
type Report = (path: string, message: string) => void;
/**
 * `params:` of a tool or a workload: name -> declaration. A workload's entry for a name the
 * tool declares is merged over the tool's (so `{default: 10}` alone changes the default).
 * Problems go to `report`; only sound declarations are returned.
 */
export declare function paramDeclarations(raw: unknown, path: string, report: Report, inherited?: Record<string, Raw>): {
    declared: Record<string, ParamDeclaration>;
    raw: Record<string, Raw>;
};
/**
 * The values a run uses: the ones given, checked against the declarations, over the defaults.
 * Every problem is listed, so that a client fixes its request at once.
 */
export declare function resolveParams(declared: Record<string, ParamDeclaration>, given?: Record<string, unknown>): {
    values: Record<string, ParamValue>;
    problems: ParamProblem[];
};
/**
 * The environment that carries parameter values to a step's scripts: `BW_PARAM_<NAME>`, the
 * value as text (booleans `true`/`false`). The runner writes it quoted into env.sh, which is
 * sourced, so a value is data to the shell, never code.
 */
export declare function paramEnv(values: Record<string, ParamValue>): Record<string, string>;
export {};
