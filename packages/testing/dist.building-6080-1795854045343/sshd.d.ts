export interface SshdOptions {
    /** Default /usr/sbin/sshd. */
    sshdPath?: string;
    /** How long to wait for the banner; default 10 s. */
    startTimeoutMs?: number;
    /** Receives sshd's log lines (it logs to stderr with -e); dropped by default. */
    onLog?: (line: string) => void;
    /**
     * Extra sshd_config lines, e.g. `MaxSessions 20`. By default the server keeps OpenSSH's
     * stock limits (MaxSessions 10, MaxStartups 10:30:100), as a real host would.
     */
    extraConfig?: string[];
    /**
     * Lets users log in with their password (`PasswordAuthentication yes`; sshd, without PAM,
     * checks it against the system's shadow file: see createPasswordUser). Off by default.
     */
    passwordAuthentication?: boolean;
    /**
     * The CPUs sshd, and so every session's processes, may run on (`taskset -c`, e.g. "0"): a host
     * with fewer CPUs than this machine. All of them by default.
     */
    cpus?: string;
    /**
     * Runs sshd, and so every session's processes, in a CPU cgroup of its own with this weight
     * (cgroup v1's `cpu.shares`; 1024 is a group's default): see createCpuGroup. A benchmark's
     * figures then depend on the CPUs it may use, not on how many other sessions the machine
     * runs. Needs root.
     */
    cpuShares?: number;
    /**
     * With `cpuShares`: at most this many CPUs' worth of time for sshd and its sessions (the cgroup's
     * CPU bandwidth), on whichever CPUs are free: `1` is a one-CPU host.
     */
    cpuLimit?: number;
}
export interface SshdHarness {
    host: string;
    port: number;
    username: string;
    /** The throwaway user key (OpenSSH format), authorized for `username`. */
    privateKey: string;
    privateKeyPath: string;
    /** `SHA256:...` of the throwaway host key. */
    hostKeyFingerprint: string;
    stop(): Promise<void>;
    /** Kills the per-connection sshd processes (and what runs below them), leaving the listener: every client sees its connection drop. Returns how many connections it cut. */
    killSessionProcesses(): Promise<number>;
    /**
     * An outage: the listener stops (SIGSTOP: new connections hang in the handshake until the
     * client gives up) and every open connection is cut. Steps started detached go on.
     * Returns how many connections it cut.
     */
    suspend(): Promise<number>;
    /** Ends the outage: the listener answers again (and accepts what queued meanwhile). */
    resume(): void;
    /**
     * Makes another throwaway user key, authorized for `username` unless `authorized` is false,
     * and returns its private key text.
     */
    generateUserKey(options?: {
        authorized?: boolean;
    }): Promise<string>;
    /** Authorizes one more OpenSSH public key line for `username` (as a cloud's guest agent does from metadata). */
    authorize(publicKey: string): Promise<void>;
}
/**
 * Starts a private OpenSSH server on 127.0.0.1 with throwaway keys in a temporary
 * directory, for integration tests. Touches no system configuration, except creating
 * sshd's privilege separation directory (/run/sshd) if it is missing.
 */
export declare function startSshd(options?: SshdOptions): Promise<SshdHarness>;
export declare function sshTargetOf(harness: SshdHarness): {
    host: string;
    port: number;
    username: string;
    privateKey: string;
};
