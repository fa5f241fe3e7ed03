export interface ExecOptions {
  /** Receives standard output as it arrives; when set, `stdout` of the result is empty. */
  onStdout?: (chunk: Buffer) => void;
  onStderr?: (chunk: Buffer) => void;
  /** Aborting closes the channel (the remote command may go on: use detached steps for work). */
  signal?: AbortSignal;
}

export interface ExecResult {
  /** Exit code; null when the command ended on a signal or the channel closed without one. */
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** How the engine reaches a machine: a shell and a way to write files. */
export interface Transport {
  /** For messages: `user@host:port` or `local`. Never holds a secret. */
  readonly description: string;
  /** Runs a command through the target's shell (`bash -c` semantics on the target). */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  /** Writes a file on the target, creating nothing but the file itself. `~/` is the login home. */
  writeFile(path: string, data: string | Buffer, mode?: number): Promise<void>;
  /** Releases this handle; pooled connections may stay open for others. */
  release(): void;
}

export interface SshTarget {
  host: string;
  port: number;
  username: string;
  /** PEM/OpenSSH private key text, with real line ends. A target has a key, a password, or both. */
  privateKey?: string;
  /** For password authentication (hosts the Benchmarking Suite reached with `password`). */
  password?: string;
}

/** Trust on first use: where host key fingerprints are remembered, per machine. */
export interface HostKeyStore {
  /** The recorded fingerprint (`SHA256:...`) of this machine, if any. */
  get(machineKey: string): Promise<string | undefined>;
  /** Records the fingerprint seen on first use. */
  set(machineKey: string, fingerprint: string): Promise<void>;
}
