import type { BackoffOptions } from "./backoff.js";
import type { RoundTripCounter } from "./round-trips.js";
import type { HostKeyStore } from "./transport.js";

export interface SshConnectionOptions {
  hostKeys: HostKeyStore;
  readyTimeoutMs: number;
  keepaliveIntervalMs: number;
  keepaliveCountMax: number;
  /** Channels open at once, until the server shows that it allows fewer. */
  maxChannels: number;
  /** Handshake attempts: a server past its MaxStartups drops new connections at random. */
  backoff: BackoffOptions;
  /** A connection without a channel for this long is closed. */
  idleTimeoutMs: number;
  /** Where the channels, commands and SFTP operations asked of the host are counted. */
  roundTrips?: RoundTripCounter;
}

/** What a connection tells the set of connections it belongs to. */
export interface SshConnectionEvents {
  /** Every machine whose host key record a new connection must match. */
  machineKeys(): Iterable<string>;
  /** The handshake succeeded (for counting). */
  connected(): void;
  /** Channel slots were freed, the connection became ready, or it died. */
  changed(): void;
}
