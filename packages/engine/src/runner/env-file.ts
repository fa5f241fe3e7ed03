import { BenchwrightError } from "../errors.js";
import { singleQuoted } from "./shell-quote.js";

const NAME = /^[A-Z_][A-Z0-9_]*$/i;

/**
 * Steps run detached under sshd's minimal environment, where root tools in /usr/sbin and
 * /sbin are often missing from PATH; benchmarks call them (sysctl, ip, ...).
 */
const PATH_LINE = `export PATH="\${PATH:-/usr/local/bin:/usr/bin:/bin}:/usr/local/sbin:/usr/sbin:/sbin"`;

/** The text of `env.sh`: the login-ish PATH, then one `export NAME='value'` per variable. */
export function envFileContent(env: Record<string, string> = {}): string {
  const lines = ["# Written by Benchwright: sourced before the step runs.", PATH_LINE];
  for (const [name, value] of Object.entries(env)) {
    if (!NAME.test(name)) throw new BenchwrightError("internal", `Invalid environment variable name: ${JSON.stringify(name)}`);
    if (value.includes("\0")) throw new BenchwrightError("internal", `Environment variable ${name} holds a NUL byte`);
    // Always quoted, even for plain words, so the file reads uniformly.
    lines.push(`export ${name}=${singleQuoted(value)}`);
  }
  return lines.join("\n") + "\n";
}
