/**
 * For a parser's tests: the output recorded from the real tool (fixtures/<tool>/<name>.txt)
 * and the context the catalog calls the parser with.
 */
export declare function recordedOutput(tool: string): {
    fixture: (name: string) => string;
    ctx: (workload: string) => {
        tool: string;
        workload: string;
    };
};
