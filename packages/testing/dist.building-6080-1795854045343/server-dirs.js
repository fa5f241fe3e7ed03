import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../config");
/** Two temp dirs, `bw-<name>-data-*` (empty) and `bw-<name>-config-*` (the repository's config dir copied). */
export function serverDirs(name) {
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
//# sourceMappingURL=server-dirs.js.map