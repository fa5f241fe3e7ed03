/**
 * A stateful stand-in for the parts of the Compute Engine REST API (v1) Benchwright calls:
 * instances in one zone and firewalls, on 127.0.0.1. The real `@google-cloud/compute` client
 * talks to it over its REST transport, authenticated by `authClient` (what google-auth-library
 * would be, reduced to a bearer token). Running instances' external address is `sshHost`, so
 * the provider's SSH really reaches the test's server.
 */
export interface GceDoubleOptions {
    sshHost: string;
    project?: string;
    zone?: string;
    /** GETs an instance needs before it is RUNNING (default 1). */
    pollsUntilRunning?: number;
    /**
     * Told each public key of a new instance's `ssh-keys` metadata, as GCE's guest agent writes
     * them to the user's authorized_keys (the test's sshd: see SshdHarness.authorize).
     */
    guestAgent?: (publicKey: string) => Promise<void>;
}
export type GceOperation = "insertInstance" | "getInstance" | "deleteInstance" | "listInstances" | "insertFirewall" | "deleteFirewall" | "listFirewalls"
/** Not a call: the next instance made ends up TERMINATED instead of RUNNING. */
 | "instanceBoot";
interface GceInventory {
    /** `networkIP` is its address in the VPC network, its own. */
    instances: Array<{
        name: string;
        status: string;
        labels: Record<string, string>;
        tags: string[];
        sshKeys: string;
        externalIp: boolean;
        networkIP: string;
    }>;
    /**
     * Ingress firewalls: `allowed` as `tcp/22` (`all`: every protocol and port), to the instances
     * with one of `targetTags` (all of the network's, when none), from any address in
     * `sourceRanges` or any instance with one of `sourceTags` (ORed, as GCE does; neither given
     * is `0.0.0.0/0`, as GCE takes it).
     */
    firewalls: Array<{
        name: string;
        description: string;
        network: string;
        allowed: string[];
        sourceRanges: string[];
        sourceTags: string[];
        targetTags: string[];
    }>;
}
export interface GceDouble {
    project: string;
    zone: string;
    /** What `gceClient` in the provider options takes: the client is pointed here. */
    clientOptions: {
        apiEndpoint: string;
        port: number;
        protocol: "http";
        authClient: unknown;
    };
    inventory(): GceInventory;
    /** The next call of `operation` fails; with `after`, that many calls of it succeed first (the second insertFirewall: 1). */
    failNext(operation: GceOperation, error?: {
        status?: number;
        message?: string;
    }, after?: number): void;
    /** While held, instances being made stay in STAGING. */
    holdBoot(hold: boolean): void;
    /** Makes an instance the way another session (or another tool) would have. */
    seedInstance(labels: Record<string, string>): string;
    /** The bearer token the client was given (to check it never leaks). */
    token: string;
    stop(): Promise<void>;
}
export declare function startGceDouble(options: GceDoubleOptions): Promise<GceDouble>;
export {};
