import type { Gate } from "@benchwright/sdk";
import { metricName, ratioText } from "./markdown.js";

/** A workflow command's data: `%`, CR and LF escaped as GitHub Actions reads them. */
const data = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
/** A workflow command's property value: `:` and `,` escaped too. */
const property = (s: string) => data(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

/**
 * GitHub Actions' annotation lines (`::error title=...::message`): an error for each worse cell,
 * a warning for each inconclusive one (an error when inconclusive fails the gate).
 */
export function gateAnnotations(gate: Gate, inconclusiveFails: boolean): string[] {
  return gate.cells.flatMap((cell) => {
    if (cell.verdict !== "worse" && cell.verdict !== "inconclusive") return [];
    const level = cell.verdict === "worse" || inconclusiveFails ? "error" : "warning";
    const title = property(`Benchmark ${cell.verdict}: ${metricName(cell)} ${ratioText(cell)}`);
    return [`::${level} title=${title}::${data(cell.sentence)}`];
  });
}
