import type { ToolVersionQuery } from "@benchwright/catalog";
import type { Transport } from "../transport/transport.js";

// A version is one short command: a host that takes longer has something wrong, and the
// prepare it ends must not wait on it.
const VERSION_TIMEOUT_MS = 30_000;

/** The tool's version on the machine, or undefined when the query exits non-zero or prints none. */
export async function readToolVersion(transport: Transport, query: ToolVersionQuery, signal?: AbortSignal): Promise<string | undefined> {
  const limit = AbortSignal.timeout(VERSION_TIMEOUT_MS);
  const { code, stdout } = await transport.exec(query.script, { signal: signal ? AbortSignal.any([signal, limit]) : limit });
  return code === 0 ? query.read(stdout) : undefined;
}
