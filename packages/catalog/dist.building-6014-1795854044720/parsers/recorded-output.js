import { readFileSync } from "node:fs";
function recordedOutput(tool) {
  return {
    fixture: (name) => readFileSync(new URL(`./fixtures/${tool}/${name}.txt`, import.meta.url), "utf8"),
    ctx: (workload) => ({ tool, workload })
  };
}
export {
  recordedOutput
};
//# sourceMappingURL=recorded-output.js.map
