/**
 * A TCP listener standing for a service the server must not reach (on loopback: "inside its
 * network"): it counts the connections it gets, which a test of the outbound guard expects to
 * stay at none, and answers each request with `answer` (raw HTTP), or hangs up at once.
 */
export interface CountingListener {
    port: number;
    readonly connections: number;
    reset(): void;
    stop(): Promise<void>;
}
export declare function startCountingListener(options?: {
    host?: string;
    answer?: string;
}): Promise<CountingListener>;
