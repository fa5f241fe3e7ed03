/**
 * What one cloud differs in. Everything else (what to create in which order, recording each
 * resource before anything waits on it, waiting with the step's signal, tearing down on
 * failure, sweeping) is done once, by CloudProvider, on top of these calls.
 */

import type { MachinePlacement } from "../provider.js";

/** The ledger kinds a driver records, by the part each plays in a session. */
interface CloudKinds {
  machine: string;
  key: string;
  /**
   * The firewalls the session makes (security group): the one letting SSH in and, where the
   * cloud keeps it apart (GCE, see `createPeerAccess`), the one letting the session's machines in.
   */
  access: string;
  /** An address attached after launch (floating IP), for clouds that need one. */
  address?: string;
  /**
   * What each machine is made with as resources of their own (Azure: its public address and
   * network interface), in the order they are torn down: `launch` records each through
   * `LaunchSpec.record` before asking for it; they go after the machines, before the firewalls.
   */
  parts?: string[];
}

/** A machine as the cloud sees it now. */
export type MachineView =
  | { state: "pending" }
  /**
   * `address` is absent when the machine has none reachable from here (yet): see `createAddress`.
   * `privateAddress` is its address inside the cloud's network (where the session's other
   * machines reach it), when the cloud reports one. `placement`: what the cloud says it was made
   * from, as what and where (the configured image, size and region stand in for what it does not say).
   */
  | { state: "running"; address?: string; privateAddress?: string; placement?: MachinePlacement }
  /** Unusable and not on its way up (error, stopped, shutting down): replaced or torn down. */
  | { state: "failed"; reason: string }
  | { state: "gone"; reason?: string }
  /** The cloud does not know the id: gone, or (eventually consistent, just after launch) not visible yet. */
  | { state: "unseen" };

export interface LaunchSpec {
  name: string;
  sessionId: string;
  keyName: string;
  /** The OpenSSH public key of the login key, for clouds that take it on the machine rather than as a key pair. */
  publicKey: string;
  /**
   * The session's own firewall, or what the configuration names (one or more, as the cloud
   * spells them): the user's, left as it is, which must let the session's machines reach each
   * other for workloads with roles.
   */
  access: { created: string } | { configured: string };
  /**
   * Records a resource of a kind in `kinds.parts` that `launch` is about to ask for, before it
   * does: whatever the cloud made before a failure is torn down with the session.
   */
  record(kind: string, id: string): Promise<void>;
}

/** A resource carrying our tags, found by `listTagged`; `session` is null when the tag has no session. */
export interface TaggedResource {
  kind: string;
  id: string;
  session: string | null;
}

export interface CloudDriver {
  readonly name: string;
  readonly kinds: CloudKinds;
  /**
   * Makes a key pair named `name`: imports `publicKey` (an OpenSSH public key line) when
   * given, else has the cloud generate one and returns its private key.
   */
  createKey(spec: { name: string; sessionId: string; publicKey?: string }): Promise<{ id: string; privateKey?: string }>;
  /** Makes a firewall for the session (letting SSH in, where the cloud wants a rule at once); returns its id. */
  createAccess(spec: { name: string; sessionId: string; sshPort: number }): Promise<string>;
  /**
   * Lets SSH in from anywhere through a firewall made by `createAccess` and, where the same
   * firewall can hold it (EC2, OpenStack), every protocol and port from the machines in that
   * firewall (the session's own) and from nowhere else; a rule already there is fine.
   */
  openAccess(id: string, sshPort: number): Promise<void>;
  /**
   * For a cloud whose firewall cannot let the session's machines in without letting the same
   * in from everywhere SSH comes from (GCE: a firewall's sources are ORed and its `allowed`
   * applies to each), makes a second firewall, tagged as `createAccess`'s, letting every
   * protocol and port in from the machines behind `access` (the id `createAccess` returned) to
   * them, and nothing else; returns its id, recorded as another resource of kind `access`.
   */
  createPeerAccess?(spec: { name: string; sessionId: string; access: string }): Promise<string>;
  /** Asks for one machine and returns its id without waiting for it. */
  launch(spec: LaunchSpec): Promise<string>;
  describe(machineId: string): Promise<MachineView>;
  /** Gives a running machine an address reachable from here (absent where the cloud gives one at launch). */
  createAddress?(machineId: string, sessionId: string): Promise<{ id: string; address: string }>;
  /**
   * Asks for one resource of ours to go; "busy" when it is still in use and must be asked
   * again (a firewall whose machine is still shutting down). A resource already gone is "gone".
   */
  destroy(kind: string, id: string): Promise<"gone" | "busy">;
  /** Every resource tagged as ours at this cloud (in this region or project), whatever its session. */
  listTagged(): Promise<TaggedResource[]>;
}
