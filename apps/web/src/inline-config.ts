import type { SessionCreateFormB } from "@benchwright/sdk";
import { parse } from "yaml";

/**
 * A pasted provider configuration as Form B's body. YAML or JSON (JSON is YAML): the
 * configuration itself (`provider:` and one service type, as a stored file has it) or a whole
 * body (`config:`). The API checks the rest; this only says what cannot be a configuration.
 */
export function inlineSessionBody(text: string): SessionCreateFormB {
  let value: unknown;
  try {
    value = parse(text, { prettyErrors: true });
  } catch (e) {
    throw new Error(`Not YAML or JSON: ${(e as Error).message}`);
  }
  if (!isMapping(value)) throw new Error("Paste a mapping: a provider section and one service type section, in YAML or JSON");
  const config = Object.keys(value).length === 1 && isMapping(value.config) ? value.config : value;
  if (!isMapping(config.provider)) throw new Error("The configuration has no provider section (provider: with its class)");
  return { config } as SessionCreateFormB;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
