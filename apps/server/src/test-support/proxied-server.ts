import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startPrism, type RunningPrism } from "@benchwright/contract/prism";
import { silentLogger } from "../operations/logger.js";
import { startServer, type RunningServer } from "../process/server.js";

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");

export interface ProxiedServer {
  server: RunningServer;
  /** `prism proxy --errors` in front of the server: any contract violation fails the call. */
  prism: RunningPrism;
  close(): Promise<void>;
}

/** The real server (responses validated, repository's stored configurations) behind a checking Prism proxy. */
export async function startProxiedServer(): Promise<ProxiedServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "bw-contract-"));
  const configDir = mkdtempSync(join(tmpdir(), "bw-contract-config-"));
  cpSync(REPO_CONFIG, configDir, { recursive: true });
  const server = await startServer({ host: "127.0.0.1", port: 0, dataDir, configDir, insecure: false }, silentLogger, { validateResponses: true });
  const prism = await startPrism({ mode: "proxy", upstream: server.url, errors: true }).catch(async (e) => {
    await server.close();
    throw e;
  });
  return {
    server,
    prism,
    async close() {
      await prism.stop();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}
