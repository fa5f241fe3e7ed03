import type { EngineLog } from "../engine-log.js";
import { loadProviderConfigs, type ProviderConfigFile } from "./provider-config.js";

/**
 * The Form A configurations of `<configDir>/providers`, read anew at each call so that a file
 * an operator drops in counts at once; a file that cannot be read is skipped with a warning.
 */
export function storedProviderConfigs(configDir: string, log: EngineLog): () => ProviderConfigFile[] {
  return () => loadProviderConfigs(configDir, (file, e) => log(`skipping provider configuration ${file}: ${e.message}`, { level: "warn" }));
}
