/**
 * The variables of the server's own environment that a step on the server's host inherits:
 * what a login shell would set (where to find programs, who and where the user is, language,
 * time zone, scratch dir, terminal). Everything else stays the server's: its API token, the
 * key that seals every credential, DATABASE_URL, a cloud SDK's credentials. The step
 * protocol's own variables (BW_*) come from the step's env.sh, as on every other host.
 */
const INHERITED = /^(PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|LC_[A-Z_]+|TZ|TMPDIR|TERM)$/;

/** The part of `env` a local step may see (see INHERITED). */
export function stepEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name, value]) => value !== undefined && INHERITED.test(name)));
}
