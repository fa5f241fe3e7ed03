import { parseProviderConfig } from "../config/parse-provider-config.js";
import type { CloudConfig } from "../config/provider-config-types.js";
import { BenchwrightError } from "../errors.js";
import type { ResolvedConfig } from "../model/resolved-config.js";

// The cloud driver tests' readings of the engine's own parser and error class. They stay in
// the engine (not in @benchwright/testing): they must see the very classes the code under
// test throws, which a package built against the engine's dist would not.

/** The cloud configuration of these sections, read as a session reads it. */
export function cloudConfig(sections: ResolvedConfig): CloudConfig {
  const config = parseProviderConfig(sections);
  if (config.class !== "cloud") throw new Error(`a ${config.class} configuration`);
  return config;
}

/** What the parser refuses these sections for, as the problem document lists it; [] when it takes them. */
export function configProblems(sections: ResolvedConfig): Array<{ path: string; message: string }> {
  try {
    parseProviderConfig(sections);
    return [];
  } catch (e) {
    if (!(e instanceof BenchwrightError)) throw e;
    return e.extras.errors ?? [];
  }
}

/** The BenchwrightError `promise` fails with (anything else fails the test); its messages go into `said`. */
export async function failureOf(promise: Promise<unknown>, said: string[]): Promise<BenchwrightError> {
  const outcome = await promise.then(
    () => new Error("expected a failure"),
    (e: unknown) => e,
  );
  if (!(outcome instanceof BenchwrightError)) throw outcome;
  said.push(outcome.message, outcome.detail);
  return outcome;
}
