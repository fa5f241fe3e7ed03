import { chmod, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { LocalSpawner } from "./local-spawner.js";
import type { ExecOptions, ExecResult, Transport } from "./transport.js";

/** One helper for the process: see LocalSpawner. */
const spawner = new LocalSpawner();

/** The server's own host as a target: steps for `local` machines run here. */
export class LocalShell implements Transport {
  readonly description = "local";

  exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    return spawner.exec(unwrapBashC(command), options);
  }

  async writeFile(path: string, data: string | Buffer, mode?: number): Promise<void> {
    const full = path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
    await writeFile(full, data, mode === undefined ? undefined : { mode });
    // The mode given to writeFile is masked by the umask and ignored for an existing file.
    if (mode !== undefined) await chmod(full, mode);
  }

  release(): void {}
}

/**
 * The script of a command that is nothing but `bash -c <one quoted word>` (how the runner
 * sends its scripts, so that a login shell does not matter), else the command itself. Here
 * the shell is bash already: running the script directly saves starting a second bash,
 * which the outer one would exec with the same result.
 */
export function unwrapBashC(command: string): string {
  if (!command.startsWith("bash -c ")) return command;
  const word = command.slice("bash -c ".length);
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  if (word.length < 2 || !word.startsWith("'") || !word.endsWith("'")) return command;
  const parts = word.slice(1, -1).split("'\\''");
  return parts.some((p) => p.includes("'")) ? command : parts.join("'");
}
