import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { LocalConfig } from "../config/provider-config-types.js";
import type { Machine, Provider, ProviderContext } from "./provider.js";

/** The server's own host; each session works in a private dir below the data dir. */
export class LocalProvider implements Provider {
  constructor(private readonly config: LocalConfig) {}

  async ensureMachines(ctx: ProviderContext): Promise<Machine[]> {
    return [
      {
        id: "local",
        ip: "127.0.0.1",
        platform: this.config.platform,
        workRoot: localWorkRoot(ctx.dataDir, ctx.sessionId),
        allowInstall: this.config.allowInstall,
      },
    ];
  }

  async destroy(ctx: ProviderContext): Promise<void> {
    await rm(localWorkRoot(ctx.dataDir, ctx.sessionId), { recursive: true, force: true });
  }
}

function localWorkRoot(dataDir: string, sessionId: string): string {
  return join(dataDir, "work", sessionId);
}
