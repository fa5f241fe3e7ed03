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
  /** The principal whose session it is; `bootstrap` for the server's own token. */
  owner: string;
  /** Whether every principal may read it and its executions. */
  shared: boolean;
}

/** A session as it is first written: a session made without an owner is the bootstrap token's, and not shared. */
export type NewSession = Omit<SessionRow, "deleted_at" | "owner" | "shared"> & Partial<Pick<SessionRow, "owner" | "shared">>;

/** A session as its view shows it: never its sealed configuration. */
export type SessionSummary = Omit<SessionRow, "config_sealed">;
