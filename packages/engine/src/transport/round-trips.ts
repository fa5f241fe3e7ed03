/**
 * What a process asked of its SSH hosts: channels opened (an exec's or an SFTP session's),
 * commands run, and SFTP operations (a file written, a mode set). Each costs at least one
 * round trip to the host, so their count per step is the step protocol's budget of round
 * trips (ARCHITECTURE.md, "Round trips"), asserted by a test, whatever the network's delay.
 */
export interface RoundTrips {
  channels: number;
  execs: number;
  sftp: number;
}

/** Counts the round trips of a pool of SSH connections as they are asked for. */
export class RoundTripCounter implements RoundTrips {
  channels = 0;
  execs = 0;
  sftp = 0;

  /** The counts so far, as a copy. */
  snapshot(): RoundTrips {
    return { channels: this.channels, execs: this.execs, sftp: this.sftp };
  }
}
