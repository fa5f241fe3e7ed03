import type { SessionMachines } from "../machines/session-machines.js";
import type { Store } from "../store/store.js";

/**
 * How many machines a session can give in all: an existing-vm type's hosts, one on `local`,
 * null on a cloud (it makes as many as asked). Null too for a session not there any more.
 */
export async function machineLimit(store: Store, machines: SessionMachines, sessionId: string): Promise<number | null> {
  const session = await store.sessions.get(sessionId);
  if (!session) return null;
  const config = machines.configOf(session);
  if (config.class === "local") return 1;
  if (config.class === "existing-vm") return config.hosts.length;
  return null;
}
