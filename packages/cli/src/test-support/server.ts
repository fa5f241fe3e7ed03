import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readConfig, silentLogger, startServer } from "@benchwright/server";

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");

export interface TestServer {
  url: string;
  dataDir: string;
  configDir: string;
  close(): Promise<void>;
}

/** A real server in this process, on a free loopback port, its embedded database in a temp dir, the repository's stored configurations. */
export async function startTestServer(): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "bw-cli-data-"));
  const configDir = mkdtempSync(join(tmpdir(), "bw-cli-config-"));
  cpSync(REPO_CONFIG, configDir, { recursive: true });
  const config = readConfig({ HOST: "127.0.0.1", PORT: "0", BENCHWRIGHT_DATA_DIR: dataDir, BENCHWRIGHT_CONFIG_DIR: configDir }, []);
  const running = await startServer(config, silentLogger, { validateResponses: true });
  return {
    url: running.url,
    dataDir,
    configDir,
    async close() {
      await running.close(5_000);
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}
