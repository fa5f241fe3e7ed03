import type { StepScriptOptions, ToolDefinition, WorkloadDefinition } from "./types.js";
export declare function buildPrepareScript(prelude: string, tool: ToolDefinition, workload: WorkloadDefinition, opts: StepScriptOptions): string;
export declare function buildRunScript(prelude: string, tool: ToolDefinition, workload: WorkloadDefinition, opts: StepScriptOptions): string;
