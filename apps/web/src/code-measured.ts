import { h } from "./dom.js";

/** What a run says of the code it measured: an execution's or a plan run's branch and commit. */
interface CodeMeasured {
  branch?: string | null;
  commit?: string | null;
}

/** One line of a page's facts: its label, its text and the test id a browser test finds it by. */
export interface CodeFact {
  label: "Branch" | "Commit";
  text: string;
  testid: string;
}

/**
 * The branch and commit a run measured (a CI's job, or the plan run whose cell it is, named
 * them), as the execution and plan-run pages list them under `prefix` test ids; none when its
 * client named neither, as outside CI.
 */
export function codeFacts(run: CodeMeasured, prefix: string): CodeFact[] {
  return [
    ...(run.branch ? [{ label: "Branch" as const, text: run.branch, testid: `${prefix}-branch` }] : []),
    ...(run.commit ? [{ label: "Commit" as const, text: run.commit, testid: `${prefix}-commit` }] : []),
  ];
}

/** The facts' `dt`/`dd` pairs, for a page's `dl class="facts"`. */
export function codeFactItems(run: CodeMeasured, prefix: string): HTMLElement[] {
  return codeFacts(run, prefix).flatMap((f) => [h("dt", {}, f.label), h("dd", { "data-testid": f.testid }, h("code", {}, f.text))]);
}
