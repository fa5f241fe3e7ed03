import type { Provider as ProviderView, ProviderConfiguration } from "@benchwright/contract";
import { join } from "node:path";
import { loadProviderConfigs, toConfigFile, type ProviderConfigFile } from "../config/provider-config.js";
import type { EngineLog } from "../engine-log.js";
import { BenchwrightError } from "../errors.js";
import type { SecretBox } from "../secrets/secret-box.js";
import type { Db } from "../store/db.js";
import { ProviderConfigsRepository } from "../store/provider-configs-repository.js";
import { checkDocument } from "./check-document.js";
import { type ConfigEntry, providerConfigView, providerListView } from "./config-view.js";

/** What a server with no configuration file of its own runs on: its own host, installing nothing. */
const BUILTIN_LOCAL: Readonly<Record<string, unknown>> = { provider: { class: "local", name: "local" }, default: { allow_install: false } };

export interface ProviderConfigsOptions {
  db: Db;
  secrets: SecretBox;
  configDir: string;
  log: EngineLog;
  /** The built-in `local` when no file is in `<configDir>/providers` (default true). */
  builtinLocal?: boolean;
}

/**
 * The provider configurations, from three places: the files of `<configDir>/providers` (read
 * anew at each use, read-only), the built-in `local` when there is no file, and those written
 * through the API (sealed in the database, so every server and worker sharing it reads a write
 * at once). A name is one configuration: a file's or the built-in's is never shadowed.
 */
export class ProviderConfigs {
  private readonly rows: ProviderConfigsRepository;

  constructor(private readonly options: ProviderConfigsOptions) {
    this.rows = new ProviderConfigsRepository(options.db);
  }

  /** Every configuration, the read-only ones first, then the API's by name. */
  async entries(): Promise<ConfigEntry[]> {
    const readOnly = this.readOnly();
    const taken = new Set(readOnly.map((e) => e.file.name));
    const written = (await this.rows.all()).filter((r) => !taken.has(r.name));
    return [
      ...readOnly,
      ...written.map((row) => {
        const document = this.options.secrets.open<Record<string, unknown>>(row.document_sealed);
        return { ...entryOf(toConfigFile(row.name, document), "api", row.version), document, updated: row.updated, updatedBy: row.updated_by };
      }),
    ];
  }

  /** What sessions, plans and sweeps resolve Form A names against. */
  async configs(): Promise<ProviderConfigFile[]> {
    return (await this.entries()).map((e) => e.file);
  }

  async list(): Promise<ProviderView[]> {
    return (await this.entries()).map(providerListView);
  }

  async get(name: string): Promise<ProviderConfiguration> {
    return providerConfigView(await this.entry(name));
  }

  /** Checks (every problem in one 400, nothing stored), seals and stores it: created at version 1, or the next version. */
  async put(name: string, document: Record<string, unknown>, by?: string): Promise<{ view: ProviderConfiguration; created: boolean }> {
    this.refuseReadOnly(name);
    const file = checkDocument(name, document);
    const { row, created } = await this.rows.put(name, this.options.secrets.seal(document), by ?? null);
    this.options.log(`provider configuration ${name} ${created ? "created" : "replaced"} (version ${row.version}) by ${by ?? "bootstrap"}`);
    return {
      view: providerConfigView({ ...entryOf(file, "api", row.version), document, updated: row.updated, updatedBy: row.updated_by }),
      created,
    };
  }

  /** Deletes it unless live sessions were made on it (409 `in_use`): theirs is sealed with them, but a name in use stays meaningful. */
  async delete(name: string, by?: string): Promise<void> {
    this.refuseReadOnly(name);
    const { found, inUse } = await this.rows.delete(name);
    if (!found) throw this.notFound(name, await this.names());
    if (inUse > 0) {
      throw new BenchwrightError("in_use", `Provider configuration '${name}' is used by ${inUse} live session${inUse === 1 ? "" : "s"}; delete them first`);
    }
    this.options.log(`provider configuration ${name} deleted by ${by ?? "bootstrap"}`);
  }

  /** Logs at start which configurations there are and where each comes from. Returns them. */
  async announce(): Promise<ConfigEntry[]> {
    const entries = await this.entries();
    const dir = join(this.options.configDir, "providers");
    const from = (e: ConfigEntry) => (e.source === "file" ? `file in ${dir}` : e.source === "builtin" ? "built in" : `API, version ${e.version}`);
    // None is warned of by whoever started the engine, which knows its settings' names.
    if (entries.length > 0) this.options.log(`provider configurations: ${entries.map((e) => `${e.file.name} (${from(e)})`).join(", ")}`);
    return entries;
  }

  private readOnly(): ConfigEntry[] {
    const files = loadProviderConfigs(this.options.configDir, (file, e) =>
      this.options.log(`skipping provider configuration ${file}: ${e.message}`, { level: "warn" }),
    ).map((file) => ({ ...entryOf(file, "file", 1), document: { provider: file.provider, ...file.services } }));
    if (files.length > 0 || this.options.builtinLocal === false) return files;
    const document = structuredClone(BUILTIN_LOCAL) as Record<string, unknown>;
    return [{ ...entryOf(toConfigFile("local", document), "builtin", 1), document }];
  }

  private refuseReadOnly(name: string): void {
    const found = this.readOnly().find((e) => e.file.name === name);
    if (found) {
      const what = found.source === "builtin" ? "built in" : `a file in ${join(this.options.configDir, "providers")}`;
      throw new BenchwrightError("read_only", `Provider configuration '${name}' is ${what}; it is read-only`);
    }
  }

  private async entry(name: string): Promise<ConfigEntry> {
    const entries = await this.entries();
    const found = entries.find((e) => e.file.name === name);
    if (!found)
      throw this.notFound(
        name,
        entries.map((e) => e.file.name),
      );
    return found;
  }

  private async names(): Promise<string[]> {
    return (await this.entries()).map((e) => e.file.name);
  }

  private notFound(name: string, choices: string[]): BenchwrightError {
    return new BenchwrightError("not_found", `No provider configuration '${name}'`, { choices });
  }
}

function entryOf(file: ProviderConfigFile, source: ConfigEntry["source"], version: number): Omit<ConfigEntry, "document"> {
  return { file, source, version, updated: null, updatedBy: null };
}
