import { LocalShell } from "../transport/local-shell.js";
import type { RoundTrips } from "../transport/round-trips.js";
import { SshPool, type SshPoolOptions } from "../transport/ssh-pool.js";
import type { HostKeyStore, Transport } from "../transport/transport.js";
import type { Machine } from "../providers/provider.js";
import type { Store } from "../store/store.js";

/** Hands out a transport for a session's machine: the local shell, or a pooled SSH connection. */
export class MachineAccess {
  private readonly hostKeys: HostKeyStore;

  private readonly pool: SshPool;

  constructor(store: Store, poolOptions: Omit<SshPoolOptions, "hostKeys"> = {}) {
    // Machine keys are `<session>/<machine>`: trust on first use is per machine of a session.
    this.hostKeys = {
      get: (key) => {
        const [sessionId, machineId] = splitKey(key);
        return store.machines.hostKey(sessionId, machineId);
      },
      set: (key, fingerprint) => {
        const [sessionId, machineId] = splitKey(key);
        return store.machines.setHostKey(sessionId, machineId, fingerprint);
      },
    };
    this.pool = new SshPool({ ...poolOptions, hostKeys: this.hostKeys });
  }

  transport(sessionId: string, machine: Machine): Transport {
    if (!machine.ssh) return new LocalShell();
    return this.pool.get(machine.ssh, `${sessionId}/${machine.id}`);
  }

  /** Channels, commands and SFTP operations asked of SSH hosts so far (transport/round-trips.ts). */
  get sshRoundTrips(): RoundTrips {
    return this.pool.roundTrips;
  }

  /** SSH connections alive now (local machines need none). */
  get sshConnectionsOpen(): number {
    return this.pool.connectionsOpen;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function splitKey(key: string): [string, string] {
  const i = key.indexOf("/");
  return [key.slice(0, i), key.slice(i + 1)];
}
