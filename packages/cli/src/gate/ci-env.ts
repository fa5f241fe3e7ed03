/**
 * What a CI tells a job of the code it runs on, from the environment it sets: GitHub Actions
 * (GITHUB_SHA; GITHUB_HEAD_REF and GITHUB_BASE_REF on a pull request, else GITHUB_REF_NAME) and
 * GitLab CI (CI_COMMIT_SHA; CI_MERGE_REQUEST_SOURCE_BRANCH_NAME and ..._TARGET_BRANCH_NAME on a
 * merge request, else CI_COMMIT_REF_NAME). Flags given on the command line win over these.
 */
export interface CiEnv {
  /** `github`, `gitlab`, or null outside a CI this knows. */
  ci: "github" | "gitlab" | null;
  commit?: string;
  branch?: string;
  /** A pull (merge) request's target branch: what a branch without history of its own is compared with. */
  baseBranch?: string;
}

export function ciEnvOf(env: NodeJS.ProcessEnv): CiEnv {
  const set = (v: string | undefined) => (v ? v : undefined);
  if (env.GITHUB_ACTIONS === "true" || env.GITHUB_SHA) {
    return {
      ci: "github",
      commit: set(env.GITHUB_SHA),
      branch: set(env.GITHUB_HEAD_REF) ?? set(env.GITHUB_REF_NAME),
      baseBranch: set(env.GITHUB_BASE_REF),
    };
  }
  if (env.GITLAB_CI === "true" || env.CI_COMMIT_SHA) {
    return {
      ci: "gitlab",
      commit: set(env.CI_COMMIT_SHA),
      branch: set(env.CI_MERGE_REQUEST_SOURCE_BRANCH_NAME) ?? set(env.CI_COMMIT_BRANCH) ?? set(env.CI_COMMIT_REF_NAME),
      baseBranch: set(env.CI_MERGE_REQUEST_TARGET_BRANCH_NAME),
    };
  }
  return { ci: null };
}
