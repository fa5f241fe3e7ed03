import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Engine } from "@benchwright/engine";
import { testPgliteImage } from "@benchwright/testing/pglite-image";
import { createClient, type BenchwrightClient } from "@benchwright/sdk";
import { createApp } from "@benchwright/server";
import { DIST_DIR } from "./browser.js";

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../config");

/** The real server on a loopback port, serving the built dashboard at /ui/, on a real engine of its own. */
export interface RealServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  engine: Engine;
  /** Its configuration directory (a copy of the repository's): a test may drop a tool's definition in `benchmarks/`. */
  configDir: string;
  /** An SDK client with the token. */
  bw: BenchwrightClient;
  close(): Promise<void>;
}

/**
 * Starts it with the repository's provider configurations (`local`), a data directory of its
 * own, the given API token (and the other API origins its dashboard may call) and the responses validated against the contract; `close` stops it
 * and removes its directories.
 */
export async function startRealServer(token: string, options: { uiApiOrigins?: string[] } = {}): Promise<RealServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "bw-web-data-"));
  const configDir = mkdtempSync(join(tmpdir(), "bw-web-config-"));
  cpSync(REPO_CONFIG, configDir, { recursive: true });
  mkdirSync(join(configDir, "benchmarks"), { recursive: true });
  // Its database starts from the run's migrated image (the global setup's), not initdb and every migration.
  const engine = await Engine.open({ dataDir, configDir, inMemory: true, pgliteImage: testPgliteImage() });
  const app = createApp({ engine, token, webUiDir: DIST_DIR, validateResponses: true, uiApiOrigins: options.uiApiOrigins });
  const server = await new Promise<Server>((r) => {
    const s = app.listen(0, "127.0.0.1", () => r(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    engine,
    configDir,
    bw: createClient({ baseUrl: url, token }),
    async close() {
      // Open event streams would hold the server open: closeAllConnections ends them.
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await engine.close();
      for (const dir of [dataDir, configDir]) rmSync(dir, { recursive: true, force: true });
    },
  };
}
