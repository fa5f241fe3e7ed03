import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Machine, Provider, ProviderContext, ResolvedConfig } from "./provider.js";

/** The server's own host; each session works in a private dir below the data dir. */
export class LocalProvider implements Provider {
  async ensureMachines(ctx: ProviderContext): Promise<Machine[]> {
    return [
      {
        id: "local",
        ip: "127.0.0.1",
        platform: typeof ctx.config.service.platform === "string" ? ctx.config.service.platform : "",
        workRoot: localWorkRoot(ctx.dataDir, ctx.sessionId),
        // Installing system packages on the server itself is opt-in per service type.
        allowInstall: ctx.config.service.allow_install === true,
      },
    ];
  }

  async destroy(ctx: ProviderContext): Promise<void> {
    await rm(localWorkRoot(ctx.dataDir, ctx.sessionId), { recursive: true, force: true });
  }
}

export function localWorkRoot(dataDir: string, sessionId: string): string {
  return join(dataDir, "work", sessionId);
}

export function validateLocalConfig(_config: ResolvedConfig): string[] {
  return [];
}
