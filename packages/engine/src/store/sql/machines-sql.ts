import type { MachineRow } from "../../model/machines.js";
import { json, type Sql } from "./sql.js";

/** Adds or updates a machine; facts already known stay when none are given. */
export function upsertMachine(row: Omit<MachineRow, "host_key">): Sql {
  return {
    text: `INSERT INTO machines (session_id, id, ip, platform, facts) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (session_id, id) DO UPDATE SET ip = EXCLUDED.ip, platform = EXCLUDED.platform,
         facts = COALESCE(EXCLUDED.facts, machines.facts)`,
    values: [row.session_id, row.id, row.ip, row.platform, json(row.facts)],
  };
}

export function machinesOf(sessionId: string): Sql {
  return { text: "SELECT * FROM machines WHERE session_id = $1 ORDER BY id", values: [sessionId] };
}

export function hostKeyOf(sessionId: string, machineId: string): Sql {
  return { text: "SELECT host_key FROM machines WHERE session_id = $1 AND id = $2", values: [sessionId, machineId] };
}

/** Records a host key unless one is recorded already. */
export function pinHostKey(sessionId: string, machineId: string, fingerprint: string): Sql {
  return {
    text: `INSERT INTO machines (session_id, id, ip, platform, host_key) VALUES ($1, $2, '', '', $3)
       ON CONFLICT (session_id, id) DO UPDATE SET host_key = COALESCE(machines.host_key, EXCLUDED.host_key)`,
    values: [sessionId, machineId, fingerprint],
  };
}
