/** A machine as an execution's environment records it. */
export interface VmRecord {
  id: string;
  ip: string;
  platform: string;
  facts?: Record<string, unknown>;
}

/** What is known of a session's machine: where it is, its host key (pinned on first use) and its facts. */
export interface MachineRow {
  session_id: string;
  id: string;
  ip: string;
  platform: string;
  host_key: string | null;
  facts: Record<string, unknown> | null;
}
