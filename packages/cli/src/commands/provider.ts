import { readFileSync } from "node:fs";
import { basename, dirname, extname, resolve } from "node:path";
import { BenchwrightProblemError, type ProviderConfigDocument, type ProviderConfiguration } from "@benchwright/sdk";
import { print, printJson, type Context } from "../context.js";
import { UsageError } from "../exit-codes.js";
import { readYamlFile } from "../yaml-file.js";
import { failureOf } from "../failure.js";
import { table } from "../tables.js";

/** What the server answers a file it cannot take with. */
const REFUSED_FILE = new Set(["invalid_configuration", "unknown_provider_class"]);

/**
 * `benchwright provider push <file>`: the configuration a file of the server's `providers/`
 * folder would hold, written through the API (admin), named after the file unless `--name`.
 * A secret is never given on the command line: the file holds it, or a value
 * `{from_file: path}` (relative to the file) or `{from_env: NAME}` stands for it, read here.
 */
export async function providerPushCommand(file: string, options: { name?: string }, ctx: Context): Promise<number> {
  const name = options.name ?? basename(file, extname(file));
  const document = withSecrets(await readDocument(file), dirname(resolve(file)));
  const view = await ctx.bw.putProvider(name, document as ProviderConfigDocument).catch((e: unknown) => {
    // The file is what is wrong: it exits as a usage error, with the server's every problem.
    if (e instanceof BenchwrightProblemError && REFUSED_FILE.has(e.code)) throw new UsageError(failureOf(e, ctx.url).message);
    throw e;
  });
  if (ctx.json) {
    printJson(view);
    return 0;
  }
  print(
    `Provider configuration ${view.name} stored, version ${view.version}${view.secrets_set.length ? `; secrets set: ${view.secrets_set.join(", ")}` : ""}.`,
  );
  return 0;
}

/** `benchwright provider ls`: every configuration, where it comes from and its version. */
export async function providerLsCommand(ctx: Context): Promise<number> {
  const providers = await ctx.bw.listProviders();
  if (ctx.json) {
    printJson(providers);
    return 0;
  }
  print(
    table(
      ["name", "class", "service types", "source", "version"],
      providers.map((p) => [p.name, p.class ?? "", p.service_types.join(", "), p.source ?? "", String(p.version ?? "")]),
    ),
  );
  return 0;
}

/** `benchwright provider show <name>`: one configuration, its secrets named, never shown. */
export async function providerShowCommand(name: string, ctx: Context): Promise<number> {
  const view = await ctx.bw.getProvider(name);
  if (ctx.json) {
    printJson(view);
    return 0;
  }
  print(showText(view));
  return 0;
}

function showText(v: ProviderConfiguration): string {
  return [
    `${v.name}: ${v.class}, ${v.source}${v.read_only ? " (read-only)" : ""}, version ${v.version}${v.updated ? `, updated ${v.updated} by ${v.updated_by ?? "?"}` : ""}`,
    `service types: ${v.service_types.join(", ")}`,
    `secrets set: ${v.secrets_set.join(", ") || "none"}`,
    JSON.stringify(v.config, null, 2),
  ].join("\n");
}

async function readDocument(file: string): Promise<unknown> {
  const document = await readYamlFile(file);
  if (!document || typeof document !== "object" || Array.isArray(document))
    throw new UsageError(`${file} holds no mapping (a provider section and service types)`);
  return document;
}

/** The document with each `{from_file}` and `{from_env}` replaced by what it names. */
function withSecrets(value: unknown, base: string, env: NodeJS.ProcessEnv = process.env): unknown {
  if (Array.isArray(value)) return value.map((v) => withSecrets(v, base, env));
  if (!value || typeof value !== "object") return value;
  const entries = Object.entries(value);
  if (entries.length === 1 && entries[0]![0] === "from_file") {
    const path = resolve(base, String(entries[0]![1]));
    try {
      return readFileSync(path, "utf8");
    } catch (e) {
      throw new UsageError(`cannot read the secret file ${path}: ${(e as Error).message}`);
    }
  }
  if (entries.length === 1 && entries[0]![0] === "from_env") {
    const name = String(entries[0]![1]);
    const found = env[name];
    if (found === undefined) throw new UsageError(`the environment has no ${name}, which the configuration reads a secret from`);
    return found;
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, withSecrets(v, base, env)]));
}
