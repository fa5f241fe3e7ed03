import { startPrism, type RunningPrism } from "@benchwright/contract/prism";
import { serverDirs } from "@benchwright/testing";
import { silentLogger } from "../operations/logger.js";
import { startServer, type RunningServer } from "../process/server.js";

export interface ProxiedServer {
  server: RunningServer;
  /** `prism proxy --errors` in front of the server: any contract violation fails the call. */
  prism: RunningPrism;
  close(): Promise<void>;
}

/** The real server (responses validated, repository's stored configurations) behind a checking Prism proxy. */
export async function startProxiedServer(): Promise<ProxiedServer> {
  const dirs = serverDirs("contract");
  const server = await startServer({ host: "127.0.0.1", port: 0, dataDir: dirs.dataDir, configDir: dirs.configDir, insecure: false }, silentLogger, {
    validateResponses: true,
  });
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
      dirs.remove();
    },
  };
}
