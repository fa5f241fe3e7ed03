import * as ec2 from "@aws-sdk/client-ec2";
/**
 * A stateful stand-in for the EC2 API (the one thing that cannot exist here): a real
 * ec2.EC2Client whose `send` is answered from memory. Instances come up at `sshHost`, so the
 * provider's SSH check reaches whatever the test runs there.
 */
export interface Ec2DoubleOptions {
    sshHost: string;
    /** Informational: the port the test's SSH server listens on (the provider takes it as an option). */
    sshPort?: number;
    /** Describes an instance needs before it is running (default 1). */
    pollsUntilRunning?: number;
    /** What CreateKeyPair hands out (e.g. the test sshd's key); a fresh RSA key otherwise. */
    privateKey?: string;
}
interface Ec2Inventory {
    instances: Array<{
        id: string;
        state: string;
        imageId: string;
        keyName?: string;
        subnetId?: string;
        groupIds: string[];
        /** Whether it has a public address: always in the default VPC, in another subnet only when asked for. */
        publicIp: boolean;
        /** Its PrivateIpAddress, its own in the subnet. */
        privateIp: string;
        tags: Record<string, string>;
    }>;
    /** `publicKey` is the imported key's OpenSSH line; absent for a key pair EC2 made. */
    keyPairs: Array<{
        name: string;
        publicKey?: string;
        tags: Record<string, string>;
    }>;
    /**
     * With their ingress rules, each `<protocol>/<ports> from <source>` (`all from <group id>` for
     * every protocol and port from the members of a group): `tcp/22 from 0.0.0.0/0`.
     */
    securityGroups: Array<{
        id: string;
        name: string;
        tags: Record<string, string>;
        rules: string[];
    }>;
}
export interface Ec2Double {
    client: ec2.EC2Client;
    inventory(): Ec2Inventory;
    /**
     * The next call of `command` (`RunInstances` or `RunInstancesCommand`) fails with
     * `error` (an Error, or an AWS error code). `InstanceLaunch` instead makes the next
     * launched instance end up terminated rather than running. With `after`, that many calls of
     * it succeed first (the second AuthorizeSecurityGroupIngress of a session: `after` 1).
     */
    failNext(command: string, error?: Error | string, after?: number): void;
    /** Names of the commands sent, in order. */
    calls(): string[];
    /** While held, pending instances stay pending (a machine that takes forever to boot). */
    holdBoot(hold: boolean): void;
    restore(): void;
}
export declare function createEc2Double(options: Ec2DoubleOptions): Ec2Double;
export {};
