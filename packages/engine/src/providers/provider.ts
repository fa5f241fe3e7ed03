import type { ExecOptions, ExecResult, SshTarget } from "../transport/transport.js";

/** A machine a step can run on, as the provider hands it over. */
export interface Machine {
  /** Stable within the session: `local`, the configured host name, or the cloud instance id. */
  id: string;
  ip: string;
  /**
   * Its address inside the provider's network, where it has one apart from `ip` (a cloud
   * machine's private address): the session's other machines reach it there, where the
   * session's firewall lets them.
   */
  privateIp?: string;
  platform: string;
  /** Where work dirs go: `~/.benchwright` over SSH, `<data>/work/<session>` for local. */
  workRoot: string;
  /** Whether install scripts may install system packages on it. */
  allowInstall: boolean;
  /** How to reach it; absent means the server's own host (local shell). */
  ssh?: SshTarget;
  /** How long it took to boot, when this call made it (a cloud machine): its prepare records it. */
  boot?: MachineBoot;
  /** What a cloud made it from and where it runs: its prepare records them among its facts. */
  placement?: MachinePlacement;
}

/** A cloud machine's image (the cloud's id for it), machine type and zone, as far as the cloud tells them. */
export interface MachinePlacement {
  image?: string;
  instanceType?: string;
  zone?: string;
}

/** Seconds from the API call that made a machine to its running (`createSeconds`) and to its SSH answering (`sshReadySeconds`). */
interface MachineBoot {
  createSeconds: number;
  sshReadySeconds: number;
}

/** Every resource a provider creates is recorded here before anything waits on it. */
interface ResourceLedger {
  record(kind: string, id: string, meta?: Record<string, unknown>): Promise<void>;
  markDestroyed(kind: string, id: string): Promise<void>;
  /** Resources recorded for this session and not yet destroyed, oldest first. */
  live(): Promise<Array<{ kind: string; id: string; meta: Record<string, unknown> }>>;
}

export interface ProviderContext {
  sessionId: string;
  resources: ResourceLedger;
  /** Where the server keeps its data (local work dirs live below it). */
  dataDir: string;
  log: (line: string) => void;
  signal?: AbortSignal;
  /**
   * How many machines the step needs (a workload's roles may need several; default 1). A
   * provider that makes machines makes the session this many at least; one that has hosts
   * hands over the ones it has, and the engine maps the roles onto them.
   */
  count?: number;
  /**
   * Runs a command on one of the session's machines through the engine's own transport
   * (host key trusted on first use and recorded, as for steps): how a provider initializes
   * a machine it made. Absent where nothing can be run.
   */
  exec?: (machine: Machine, command: string, options?: ExecOptions) => Promise<ExecResult>;
}

export interface SweptResource {
  provider: string;
  kind: string;
  id: string;
  session_id: string | null;
  destroyed: boolean;
  error?: string;
}

export interface Provider {
  /** Makes sure the session's machines exist and answer; returns them. Idempotent. */
  ensureMachines(ctx: ProviderContext): Promise<Machine[]>;
  /** Destroys everything the session created at the provider. Idempotent. */
  destroy(ctx: ProviderContext): Promise<void>;
  /**
   * Finds resources tagged as ours whose session is not live (`isLive` says which are)
   * and destroys them unless `dryRun`. Providers that create nothing return [].
   */
  sweep?(options: { isLive: (sessionId: string) => Promise<boolean>; dryRun: boolean; log: (line: string) => void }): Promise<SweptResource[]>;
}
