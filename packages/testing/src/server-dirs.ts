import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../config");

/** Where a server under test keeps its data, and its copy of the repository's stored configurations. */
export interface ServerDirs {
  dataDir: string;
  configDir: string;
  /** Deletes both. */
  remove(): void;
}

/** Two temp dirs, `bw-<name>-data-*` (empty) and `bw-<name>-config-*` (the repository's config dir copied). */
export function serverDirs(name: string): ServerDirs {
  const dataDir = mkdtempSync(join(tmpdir(), `bw-${name}-data-`));
  const configDir = mkdtempSync(join(tmpdir(), `bw-${name}-config-`));
  cpSync(REPO_CONFIG, configDir, { recursive: true });
  return {
    dataDir,
    configDir,
    remove() {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}
