import { randomUUID } from "node:crypto";
export function createMemoryLedger() {
    const entries = [];
    return {
        entries,
        async record(kind, id, meta = {}) {
            const existing = entries.find((e) => e.kind === kind && e.id === id);
            if (existing)
                Object.assign(existing, { meta, destroyed: false });
            else
                entries.push({ kind, id, meta, destroyed: false });
        },
        async markDestroyed(kind, id) {
            const e = entries.find((x) => x.kind === kind && x.id === id);
            if (e)
                e.destroyed = true;
        },
        async live() {
            return entries.filter((e) => !e.destroyed).map(({ kind, id, meta }) => ({ kind, id, meta }));
        },
    };
}
/** What a provider is handed for a session: the required part of the engine's ProviderContext. */
export function testContext(sessionId, logs, ledger = createMemoryLedger()) {
    return { sessionId, resources: ledger, dataDir: "/tmp/benchwright-test", log: (line) => void logs.push(line) };
}
/** A test's session id, ledger and log lines; `renew()`, from each suite's beforeEach, makes them anew. */
export class TestSession {
    sessionId = randomUUID();
    ledger = createMemoryLedger();
    logs = [];
    renew() {
        this.sessionId = randomUUID();
        this.ledger = createMemoryLedger();
        this.logs = [];
    }
    /** The provider context of this test's session. */
    context() {
        return testContext(this.sessionId, this.logs, this.ledger);
    }
}
/** A port on 127.0.0.1 where nothing listens (bound, then released). */
export async function closedPort() {
    const { createServer } = await import("node:net");
    const server = createServer();
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = server.address().port;
    await new Promise((resolve) => server.close(() => resolve()));
    return port;
}
/** Logs in to a machine for real with the key it was handed (no command: only authentication matters). */
export async function loginWorks(target) {
    const { Client } = await import("ssh2");
    return new Promise((resolve, reject) => {
        const conn = new Client();
        conn
            .on("ready", () => {
            conn.end();
            resolve("ok");
        })
            .on("error", reject)
            .connect({ host: target.host, port: target.port, username: target.username, privateKey: target.privateKey });
    });
}
/** Each secret, or long line of a key, that appears in what was said (none, when all is well). */
export function leaks(said, secrets) {
    // Named by position, so that a failing test does not print the secret it found.
    const found = [];
    [...secrets].forEach((secret, n) => {
        const lines = secret.split("\n").filter((p) => p.length >= 16 && !p.startsWith("-----"));
        if (said.some((line) => line.includes(secret)))
            found.push(`secret ${n}`);
        else if (lines.some((part) => said.some((line) => line.includes(part))))
            found.push(`a line of secret ${n}`);
    });
    return found;
}
//# sourceMappingURL=cloud-session.js.map