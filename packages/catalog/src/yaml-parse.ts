import { createRequire } from "node:module";
import type { ParseOptions } from "yaml";

let yaml: typeof import("yaml") | undefined;

/**
 * YAML's parser (~150 modules, ~30 ms of CPU to load), loaded with the first file to parse: the
 * built-in definitions come parsed (parsed-builtins.ts) and a config dir may hold no YAML, so a
 * start without such files never needs it. `require` keeps parsing synchronous; it is the module
 * `import` gives. The catalogue's definitions and the engine's provider files both parse here.
 */
export function parseYaml(text: string, options?: ParseOptions): unknown {
  yaml ??= createRequire(import.meta.url)("yaml") as typeof import("yaml");
  return yaml.parse(text, options);
}
