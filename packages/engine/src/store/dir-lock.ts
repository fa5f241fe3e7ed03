import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";

/** The embedded database's directory is held by another living process. */
export class DirectoryLocked extends Error {
  override readonly name = "DirectoryLocked";
  constructor(
    readonly dir: string,
    readonly lockFile: string,
    readonly pid: number,
  ) {
    const holder = pid ? `process ${pid}` : "another process";
    super(
      `The embedded database in ${dir} is in use by ${holder} (another Benchwright server or command on the same data directory): ` +
        `stop it, or give this one another data directory (BENCHWRIGHT_DATA_DIR); if ${holder} no longer runs, remove ${lockFile}`,
    );
  }
}

/**
 * Takes `dir` for this process through the file `<dir>.lock` holding its pid: PGlite takes no
 * lock of its own, and two processes writing one embedded database corrupt it. A lock left by
 * a process that died (a SIGKILL) is taken over. Returns the release, also done at exit.
 */
export function lockDirectory(dir: string): () => void {
  const lockFile = `${dir}.lock`;
  for (;;) {
    let fd: number;
    try {
      fd = openSync(lockFile, "wx");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const holder = holderOf(lockFile);
      // Released in between: try again.
      if (holder === null) continue;
      // A holder that has not written its pid yet is starting: it is alive.
      if (holder === undefined || isAlive(holder)) throw new DirectoryLocked(dir, lockFile, holder ?? 0);
      rmSync(lockFile, { force: true });
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    const release = () => {
      process.off("exit", release);
      if (holderOf(lockFile) === process.pid) rmSync(lockFile, { force: true });
    };
    process.on("exit", release);
    return release;
  }
}

/** The pid in the lock file; undefined when it holds none (yet), null when there is no lock file. */
function holderOf(lockFile: string): number | undefined | null {
  let text: string;
  try {
    text = readFileSync(lockFile, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  const pid = Number.parseInt(text, 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, under another user.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}
