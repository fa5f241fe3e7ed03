/**
 * The store's resource ledger in memory, enough for provider tests: the engine's ResourceLedger
 * (record, markDestroyed, live), and the entries it holds for a test to look at.
 */
export interface MemoryLedger {
    entries: Array<{
        kind: string;
        id: string;
        meta: Record<string, unknown>;
        destroyed: boolean;
    }>;
    record(kind: string, id: string, meta?: Record<string, unknown>): Promise<void>;
    markDestroyed(kind: string, id: string): Promise<void>;
    live(): Promise<Array<{
        kind: string;
        id: string;
        meta: Record<string, unknown>;
    }>>;
}
export declare function createMemoryLedger(): MemoryLedger;
/** What a provider is handed for a session: the required part of the engine's ProviderContext. */
export declare function testContext(sessionId: string, logs: string[], ledger?: MemoryLedger): {
    sessionId: string;
    resources: MemoryLedger;
    dataDir: string;
    log: (line: string) => void;
};
/** A test's session id, ledger and log lines; `renew()`, from each suite's beforeEach, makes them anew. */
export declare class TestSession {
    sessionId: `${string}-${string}-${string}-${string}-${string}`;
    ledger: MemoryLedger;
    logs: string[];
    renew(): void;
    /** The provider context of this test's session. */
    context(): ReturnType<typeof testContext>;
}
/** A port on 127.0.0.1 where nothing listens (bound, then released). */
export declare function closedPort(): Promise<number>;
/** Logs in to a machine for real with the key it was handed (no command: only authentication matters). */
export declare function loginWorks(target: {
    host: string;
    port: number;
    username: string;
    privateKey?: string;
}): Promise<string>;
/** Each secret, or long line of a key, that appears in what was said (none, when all is well). */
export declare function leaks(said: string[], secrets: Iterable<string>): string[];
