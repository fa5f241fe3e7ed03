/** What a run says of the code it measured: an execution's, a plan run's or a series point's branch and commit. */
export interface CodeMeasured {
  branch?: string | null;
  commit?: string | null;
}

/** How many of a commit's characters identify it where a table is narrow (as git's short ids, a little longer). */
const SHORT_COMMIT = 12;

/**
 * `feature/a at 3f9c2d1e5a7b`: the branch and commit a run measured, for `show`, `plan run`,
 * `plan report` and a series' points; undefined when its client named neither (a run outside CI).
 */
export function codeMeasuredText(run: CodeMeasured, short = false): string | undefined {
  const commit = run.commit && (short ? run.commit.slice(0, SHORT_COMMIT) : run.commit);
  if (run.branch && commit) return `${run.branch} at ${commit}`;
  if (run.branch) return run.branch;
  return commit ? `commit ${commit}` : undefined;
}
