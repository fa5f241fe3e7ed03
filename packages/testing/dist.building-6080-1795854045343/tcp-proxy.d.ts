export interface TcpProxy {
    /** The loopback port that forwards to the target. */
    port: number;
    /** An outage: every open connection is cut, and new ones are reset as soon as they arrive. */
    cut(): void;
    /** The end of the outage: connections go through again. */
    restore(): void;
    close(): Promise<void>;
}
/**
 * A TCP forwarder on 127.0.0.1 in front of a real server, so that a test can take that
 * server away (a database outage, a network cut) and bring it back, without stopping it.
 */
export declare function startTcpProxy(target: {
    host: string;
    port: number;
}): Promise<TcpProxy>;
