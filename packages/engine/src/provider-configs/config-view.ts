import type { Provider as ProviderView, ProviderConfiguration, ProviderSource } from "@benchwright/contract";
import type { ProviderConfigFile } from "../config/provider-config.js";
import { credentialPaths, MASK } from "../secrets/scrub.js";
import { formatTimestamp } from "../time.js";
import { resolvedServices } from "./check-document.js";

/** A configuration the engine knows, from wherever it came. */
export interface ConfigEntry {
  file: ProviderConfigFile;
  /** The sections as written (`provider` and one per service type), credentials in clear: never answered. */
  document: Record<string, unknown>;
  source: ProviderSource;
  version: number;
  updated: Date | null;
  updatedBy: string | null;
}

/** What `GET /providers/` lists of a configuration: the seed's fields, and where it comes from. */
export function providerListView(entry: ConfigEntry): ProviderView {
  const { file } = entry;
  return {
    name: file.name,
    service_types: Object.keys(file.services),
    class: file.providerClass,
    ...(typeof file.provider.driver === "string" ? { driver: file.provider.driver } : {}),
    ...(typeof file.provider.region === "string" ? { region: file.provider.region } : {}),
    source: entry.source,
    version: entry.version,
  };
}

/** The JSON Pointer of a place in the document (RFC 6901 escaping). */
function pointer(at: ReadonlyArray<string | number>): string {
  return at.map((p) => `/${String(p).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** One configuration as `GET /providers/{name}` shows it: each credential replaced by `***`, and named in `secrets_set`. */
export function providerConfigView(entry: ConfigEntry): ProviderConfiguration {
  const config = structuredClone(entry.document);
  const secrets = new Map<string, ReadonlyArray<string | number>>();
  for (const resolved of resolvedServices(entry.file)) {
    for (const at of credentialPaths(resolved)) secrets.set(pointer(at), at);
  }
  for (const at of secrets.values()) mask(config, at);
  return {
    ...providerListView(entry),
    class: entry.file.providerClass,
    source: entry.source,
    read_only: entry.source !== "api",
    version: entry.version,
    updated: entry.updated ? formatTimestamp(entry.updated) : null,
    updated_by: entry.updatedBy,
    config,
    secrets_set: [...secrets.keys()].sort(),
  };
}

function mask(document: Record<string, unknown>, at: ReadonlyArray<string | number>): void {
  let node: unknown = document;
  for (const key of at.slice(0, -1)) {
    if (!node || typeof node !== "object") return;
    node = (node as Record<string | number, unknown>)[key];
  }
  const last = at[at.length - 1];
  if (node && typeof node === "object" && last !== undefined && last in node) (node as Record<string | number, unknown>)[last] = MASK;
}
