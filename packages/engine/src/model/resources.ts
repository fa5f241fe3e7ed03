/** A resource a provider made at the cloud for a session, kept until it is destroyed. */
export interface ResourceRow {
  session_id: string;
  provider_name: string;
  kind: string;
  resource_id: string;
  meta_sealed: string;
  created: Date;
  destroyed_at: Date | null;
}

/** A resource's life as the ledger recorded it, by the database's clock. */
export type ResourceLifetime = Pick<ResourceRow, "session_id" | "kind" | "resource_id" | "created" | "destroyed_at">;

/** How many resources of one kind a configuration's sessions hold at the cloud (see Store.liveResourceCounts). */
export interface LiveResourceCount {
  /** The configuration's name. */
  provider: string;
  /** `ec2`, `openstack`...; empty when the session row is gone. */
  driver: string;
  kind: string;
  count: number;
}
