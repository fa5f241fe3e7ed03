// Shared set-up of the bench scripts: a real server on a throwaway data dir, on loopback.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer, silentLogger } from "@benchwright/server";

export async function benchServer({ benchmarks = {} } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "bw-bench-"));
  const configDir = mkdtempSync(join(tmpdir(), "bw-bench-config-"));
  cpSync(new URL("../config", import.meta.url), configDir, { recursive: true });
  mkdirSync(join(configDir, "benchmarks"), { recursive: true });
  for (const [name, text] of Object.entries(benchmarks)) writeFileSync(join(configDir, "benchmarks", `${name}.yaml`), text);
  const server = await startServer({ host: "127.0.0.1", port: 0, dataDir, configDir, insecure: false }, silentLogger);
  const api = `${server.url}/api/v1`;
  const call = async (method, path, body) => {
    const res = await fetch(api + path, {
      method,
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return {
    api,
    call,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(configDir, { recursive: true, force: true });
    },
  };
}

export function mib(bytes) {
  return (bytes / 2 ** 20).toFixed(1);
}
