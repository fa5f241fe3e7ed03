import { readFileSync } from "node:fs";

/**
 * For a parser's tests: the output recorded from the real tool (fixtures/<tool>/<name>.txt)
 * and the context the catalog calls the parser with.
 */
export function recordedOutput(tool: string) {
  return {
    fixture: (name: string) => readFileSync(new URL(`./fixtures/${tool}/${name}.txt`, import.meta.url), "utf8"),
    ctx: (workload: string) => ({ tool, workload }),
  };
}
