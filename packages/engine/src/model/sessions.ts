import type { Session } from "@benchwright/contract";

export type SessionState = Session["state"];

export interface SessionRow {
  id: string;
  provider_name: string;
  service_type: string;
  provider_class: string;
  driver: string | null;
  region: string | null;
  config_sealed: string;
  state: SessionState;
  created: Date;
  deleted_at: Date | null;
}

/** A session's row as it is first written; its owner and sharing as the columns' defaults say (`bootstrap`, not shared) unless given. */
export type NewSessionRow = Omit<SessionRow, "deleted_at"> & { owner?: string; shared?: boolean };

/** A session as its view shows it: never its sealed configuration. */
export type SessionSummary = Omit<SessionRow, "config_sealed">;
