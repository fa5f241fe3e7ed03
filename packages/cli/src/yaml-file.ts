import { readFileSync } from "node:fs";
import { UsageError } from "./exit-codes.js";

/** A YAML file's document, or a usage error that names the file (unreadable, or not YAML). */
export async function readYamlFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
  // Loaded here, by the commands that read a file: the others start without it.
  const { parse: parseYaml } = await import("yaml");
  try {
    return parseYaml(text) as unknown;
  } catch (e) {
    throw new UsageError(`${file} is not YAML: ${(e as Error).message}`);
  }
}
