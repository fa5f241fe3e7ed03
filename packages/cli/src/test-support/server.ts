import { readConfig, silentLogger, startServer } from "@benchwright/server";
import { serverDirs } from "@benchwright/testing";
import { testPgliteImage } from "@benchwright/testing/pglite-image";

export interface TestServer {
  url: string;
  dataDir: string;
  configDir: string;
  close(): Promise<void>;
}

/** A real server in this process, on a free loopback port, its embedded database in a temp dir, the repository's stored configurations. */
export async function startTestServer(): Promise<TestServer> {
  const { dataDir, configDir, remove } = serverDirs("cli");
  const config = readConfig({ HOST: "127.0.0.1", PORT: "0", BENCHWRIGHT_DATA_DIR: dataDir, BENCHWRIGHT_CONFIG_DIR: configDir }, []);
  // Its database starts from the run's migrated image (the global setup's), not initdb and every migration.
  const running = await startServer(config, silentLogger, { validateResponses: true, pgliteImage: testPgliteImage() });
  return {
    url: running.url,
    dataDir,
    configDir,
    async close() {
      await running.close(5_000);
      remove();
    },
  };
}
