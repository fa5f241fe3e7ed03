import type { MachineRow } from "../model/machines.js";
import type { Db } from "./db.js";
import { hostKeyOf, machinesOf, pinHostKey, upsertMachine } from "./sql/machines-sql.js";
import { run } from "./sql/sql.js";

/** What is known of the sessions' machines: addresses, facts, and host keys pinned on first use. */
export class MachinesRepository {
  constructor(private readonly db: Db) {}

  async upsert(row: Omit<MachineRow, "host_key">): Promise<void> {
    await run(this.db, upsertMachine(row));
  }

  async list(sessionId: string): Promise<MachineRow[]> {
    return run<MachineRow>(this.db, machinesOf(sessionId));
  }

  async hostKey(sessionId: string, machineId: string): Promise<string | undefined> {
    const rows = await run<{ host_key: string | null }>(this.db, hostKeyOf(sessionId, machineId));
    return rows[0]?.host_key ?? undefined;
  }

  /** Records a host key on first use only: a key already recorded is never replaced here. */
  async setHostKey(sessionId: string, machineId: string, fingerprint: string): Promise<void> {
    await run(this.db, pinHostKey(sessionId, machineId, fingerprint));
  }
}
