/**
 * A stateful stand-in for the OpenStack APIs Benchwright's client calls: Keystone v3
 * password auth, Nova (flavors, key pairs, servers), Glance v2 images and Neutron
 * (networks, ports, security groups and their rules, floating IPs), on 127.0.0.1. Servers'
 * fixed address (unless told otherwise) and every floating IP are `sshHost`, so the
 * provider's SSH check reaches the test's server.
 */
export interface OpenStackDoubleOptions {
    sshHost: string;
    username?: string;
    password?: string;
    project?: string;
    domain?: string;
    region?: string;
    /** GETs a server needs before it is ACTIVE (default 1). */
    pollsUntilActive?: number;
    /**
     * The servers' fixed address (default sshHost: a loopback address counts as private, so a
     * floating IP is still made), or each server's own, from the count of servers made before it.
     */
    fixedIp?: string | ((n: number) => string);
    /** What Nova hands out as a generated key pair's private key (e.g. the test sshd's key); a fresh RSA key otherwise. */
    privateKey?: string;
}
export type OpenStackOperation = "auth" | "listFlavors" | "getImage" | "listImages" | "createKeypair" | "listKeypairs" | "deleteKeypair" | "createServer" | "getServer" | "listServers" | "deleteServer" | "listNetworks" | "listPorts" | "createFloatingIp" | "listFloatingIps" | "deleteFloatingIp" | "createSecurityGroup" | "createSecurityGroupRule" | "listSecurityGroups" | "deleteSecurityGroup"
/** Not a call: the next server created goes into ERROR instead of ACTIVE. */
 | "serverBuild";
interface OpenStackInventory {
    /** `network` and `securityGroups` are names, as asked for at creation (Nova's defaults otherwise); `fixedIp` is its port's fixed address. */
    servers: Array<{
        id: string;
        name: string;
        status: string;
        metadata: Record<string, string>;
        keyName: string;
        network: string;
        securityGroups: string[];
        fixedIp: string;
    }>;
    /** `publicKey` is what was imported; absent for a key pair Nova made. */
    keyPairs: Array<{
        name: string;
        publicKey?: string;
    }>;
    /**
     * Groups made through the API (the project's own `default` and `ssh` are not listed), with
     * their rules, each `<protocol>/<ports> from <remote>`: `tcp/22 from 0.0.0.0/0`, `all from
     * <group id>` (no protocol: every one, from the ports in that group); IPv6 ones begin with
     * `IPv6 `, egress ones with `egress:`.
     */
    securityGroups: Array<{
        id: string;
        name: string;
        description: string;
        rules: string[];
    }>;
    floatingIps: Array<{
        id: string;
        address: string;
        portId: string | null;
        description: string;
    }>;
}
/** An injected failure: its HTTP status and message, and whether the message echoes credentials. */
export interface OpenStackFailure {
    status?: number;
    message?: string;
    /**
     * Appends the credentials to the message the way a careless Python service echoes a request
     * (see credentialEcho): for `auth`, the user name and password the request carried; for any
     * other operation, the double's own. For `serverBuild` the echo goes into the server's fault.
     */
    echoCredentials?: boolean;
}
/**
 * Credentials as a debugging Python service puts them into an error message: the repr of the
 * request's auth dict, the JSON body, a form-encoded query string, a Basic authorization
 * header and the base64 of the password.
 */
export declare function credentialEcho(user: string, password: string): string;
export interface OpenStackDouble {
    /** Keystone's versioned base, e.g. `http://127.0.0.1:41234/v3`. */
    authUrl: string;
    username: string;
    password: string;
    project: string;
    inventory(): OpenStackInventory;
    /** The next call of `operation` fails; with `after`, that many calls of it succeed first. */
    failNext(operation: OpenStackOperation, error?: OpenStackFailure, after?: number): void;
    /** Tokens issued so far (to check they never leak). */
    tokens(): string[];
    /** Makes every token invalid, as when they expire. */
    revokeTokens(): void;
    /** While held, servers being built stay in BUILD (a machine that takes forever to boot). */
    holdBoot(hold: boolean): void;
    /** Creates a server the way another session (or another tool) would have. */
    seedServer(metadata: Record<string, string>): string;
    stop(): Promise<void>;
}
export declare function startOpenStackDouble(options: OpenStackDoubleOptions): Promise<OpenStackDouble>;
export {};
