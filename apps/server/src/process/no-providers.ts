import { join } from "node:path";
import type { Logger } from "../operations/logger.js";

/**
 * A warning at start when no provider configuration was found: a server started from the wrong
 * folder otherwise lists none (`GET /providers/` is `[]`) and every session fails with "choices:
 * none", without a word of where it looked. Returns whether it warned.
 */
export function warnWithoutProviders(providers: readonly unknown[], configDir: string, log: Logger): boolean {
  if (providers.length > 0) return false;
  const looked = join(configDir, "providers");
  log.warn(
    { configDir, looked },
    `no provider configuration in ${looked}, none built in and none written through the API: GET /providers/ is empty and only inline configurations open sessions; ` +
      "set BENCHWRIGHT_CONFIG_DIR to the folder that holds providers/ (default: config in the current folder), or PUT /api/v1/providers/{name}, see docs/providers.md",
  );
  return true;
}
