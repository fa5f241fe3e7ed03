import { chmodSync, mkdirSync, statSync } from "node:fs";

/**
 * The data directory holds the database, the secret key and the steps' logs: it is its
 * owner's alone, made 0700. One that already exists keeps its mode, less what would let its
 * group or others write in it.
 */
export function createDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const mode = statSync(dataDir).mode & 0o7777;
  if (mode & 0o022) chmodSync(dataDir, mode & ~0o022);
}
