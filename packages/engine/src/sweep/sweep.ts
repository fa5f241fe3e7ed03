import type { SweepReport, SweepRequest } from "@benchwright/contract";
import { parseProviderConfig } from "../config/parse-provider-config.js";
import { resolveStored, type ProviderConfigFile } from "../config/provider-config.js";
import type { EngineLog } from "../engine-log.js";
import { BenchwrightError } from "../errors.js";
import { providerFailure, type SessionMachines } from "../machines/session-machines.js";
import type { Store } from "../store/store.js";

export interface SweepOptions {
  store: Store;
  machines: SessionMachines;
  providerConfigs: () => Promise<ProviderConfigFile[]>;
  log: EngineLog;
}

/** Finds (and unless `dry_run`, destroys) the cloud resources that no live session holds any more. */
export class Sweep {
  constructor(private readonly options: SweepOptions) {}

  async run(request: Partial<SweepRequest> = {}): Promise<SweepReport> {
    const { store, machines, providerConfigs, log } = this.options;
    const dryRun = request.dry_run ?? false;
    const clouds = (await providerConfigs()).filter((c) => c.providerClass === "cloud");
    const configs = clouds.filter((c) => !request.provider || c.name === request.provider);
    if (request.provider && configs.length === 0) {
      throw new BenchwrightError("unknown_provider", `No stored cloud configuration '${request.provider}'`, {
        choices: clouds.map((c) => c.name),
      });
    }
    const isLive = async (sessionId: string) => {
      const s = await store.sessions.get(sessionId).catch(() => undefined);
      return !!s && s.state !== "deleted";
    };
    const resources: SweepReport["resources"] = [];
    for (const file of configs) {
      const services = request.service ? [request.service] : Object.keys(file.services);
      for (const service of services) {
        const config = parseProviderConfig(resolveStored([file], file.name, service));
        const provider = machines.provider(config);
        try {
          resources.push(...((await provider.sweep?.({ isLive, dryRun, log })) ?? []));
        } catch (e) {
          throw providerFailure(e, `Sweeping ${file.name}/${service} failed`, config);
        }
      }
    }
    return { dry_run: dryRun, resources };
  }
}
