import { parseProviderConfig } from "../config/parse-provider-config.js";
import type { ProviderConfig } from "../config/provider-config-types.js";
import type { ResolvedConfig } from "../model/resolved-config.js";
import type { EngineLog, LogFields } from "../engine-log.js";
import type { BenchwrightError } from "../errors.js";
import type { OutboundPolicy } from "../net/outbound-guard.js";
import type { Machine, Provider, ProviderContext } from "../providers/provider.js";
import { createProvider, type ProviderOptions } from "../providers/registry.js";
import type { SecretBox } from "../secrets/secret-box.js";
import { scrubberOf, type Scrubber } from "../secrets/scrub.js";
import type { Store } from "../store/store.js";
import type { SessionRow } from "../model/sessions.js";
import type { MachineAccess } from "./machine-access.js";

export interface SessionMachinesOptions {
  store: Store;
  secrets: SecretBox;
  access: MachineAccess;
  dataDir: string;
  log: EngineLog;
  providers?: ProviderOptions;
  /** The policy of the cloud providers' outbound calls, unless `providers.cloud` gives one of its own. */
  outbound?: OutboundPolicy;
}

/**
 * A session's side of its provider: the configuration it sealed, the provider made from it,
 * and the machines that provider makes ready. Steps and the session's deletion both use it.
 */
export class SessionMachines {
  /** Sessions' configurations as read from what they sealed (which never changes), with their scrubbers. */
  private readonly configs = new Map<string, { sealed: string; config: ProviderConfig; scrubber: Scrubber }>();

  constructor(private readonly options: SessionMachinesOptions) {}

  /** The session's configuration, read from what it sealed by the parser that read it at its creation. */
  configOf(session: SessionRow): ProviderConfig {
    return this.settingsOf(session).config;
  }

  /** configOf and the scrubber of its credentials, kept per session: reading them costs a step a millisecond or two. */
  settingsOf(session: SessionRow): { config: ProviderConfig; scrubber: Scrubber } {
    const kept = this.configs.get(session.id);
    if (kept && kept.sealed === session.config_sealed) return kept;
    const config = parseProviderConfig(this.options.secrets.open<ResolvedConfig>(session.config_sealed));
    const entry = { sealed: session.config_sealed, config, scrubber: scrubberOf(config) };
    if (this.configs.size >= MAX_KEPT_CONFIGS) this.configs.clear();
    this.configs.set(session.id, entry);
    return entry;
  }

  /** The provider of `config`, its outbound calls under the engine's policy unless the options give the cloud one of its own. */
  provider(config: ProviderConfig): Provider {
    const providers = this.options.providers;
    return createProvider(config, { ...providers, cloud: { outbound: this.options.outbound, ...providers?.cloud } });
  }

  /** One ensureMachines at a time per session across every process sharing the database, so that two prepares never create twice. */
  ensure(
    session: SessionRow,
    config: ProviderConfig,
    { signal, about, count }: { signal?: AbortSignal; about?: LogFields; count?: number } = {},
  ): Promise<Machine[]> {
    return this.options.store.db.exclusive(`machines:${session.id}`, async () => {
      try {
        return await this.provider(config).ensureMachines({ ...this.context(session, config, about), signal, count });
      } catch (e) {
        throw providerFailure(e, `The ${config.class} provider could not make the machines ready`, config);
      }
    });
  }

  /** Machines to clean on deletion: the provider's view, without creating any that do not exist. */
  async known(config: ProviderConfig, ctx: ProviderContext): Promise<Machine[]> {
    // Destroying a cloud's instances removes their work dirs with them.
    if (config.class === "cloud") return [];
    return this.provider(config).ensureMachines(ctx);
  }

  /** `about`: what the provider's lines concern besides the session (the step that needs the machines). */
  context(session: SessionRow, config: ProviderConfig, about: LogFields = { session_id: session.id }): ProviderContext {
    const { store, secrets, access, dataDir, log } = this.options;
    return {
      sessionId: session.id,
      dataDir,
      log: this.settingsOf(session).scrubber.log((line, fields) => log(`session ${session.id}: ${line}`, { ...about, ...fields })),
      exec: async (machine, command, options) => {
        const transport = access.transport(session.id, machine);
        try {
          return await transport.exec(command, options);
        } finally {
          transport.release();
        }
      },
      resources: {
        record: (kind, id, meta = {}) =>
          store.resources.record({
            session_id: session.id,
            provider_name: config.name,
            kind,
            resource_id: id,
            meta_sealed: secrets.seal(meta),
          }),
        markDestroyed: (kind, id) => store.resources.markDestroyed(session.id, kind, id),
        live: async () =>
          (await store.resources.live(session.id)).map((r) => ({
            kind: r.kind,
            id: r.resource_id,
            meta: secrets.open<Record<string, unknown>>(r.meta_sealed),
          })),
      },
    };
  }
}

/** Provider failures become a 502 problem whose text carries no credential. */
export function providerFailure(e: unknown, context: string, config: ProviderConfig): BenchwrightError {
  // A provider's message may echo a credential in any escaping: every form is masked.
  return scrubberOf(config).fail(context, e);
}

/** Sessions whose parsed configuration is kept (see SessionMachines.settingsOf). */
const MAX_KEPT_CONFIGS = 1_000;
