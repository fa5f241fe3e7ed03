import pg from "pg";

export interface ListenRetry {
  /** The first wait before reconnecting; it doubles up to `maxMs` while the server stays away. */
  firstMs: number;
  maxMs: number;
}

const DEFAULT_RETRY: ListenRetry = { firstMs: 100, maxMs: 5_000 };

/**
 * Keeps one dedicated connection (not a pooled one: LISTEN belongs to a session) listening on
 * `channel`, and reconnects with backoff when it drops. `onNotify` runs for every notification
 * and once after each (re)connection, because whatever was notified while the connection was
 * down is lost: a listener must look again then. Returns the function that stops listening.
 */
export function listenPostgres(url: string, channel: string, onNotify: () => void, retry: ListenRetry = DEFAULT_RETRY): () => Promise<void> {
  let stopped = false;
  let current: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  let delay = retry.firstMs;
  let connecting: Promise<void> = Promise.resolve();

  const connect = async (): Promise<void> => {
    timer = undefined;
    if (stopped) return;
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000, keepAlive: true });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (current === client) current = undefined;
      client.end().catch(() => {});
      if (stopped) return;
      timer = setTimeout(() => (connecting = connect()), delay);
      delay = Math.min(delay * 2, retry.maxMs);
    };
    // A dropped connection must not crash the process: it is replaced.
    client.on("error", onLost);
    client.on("end", onLost);
    client.on("notification", (n) => {
      if (n.channel === channel) onNotify();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
    } catch {
      onLost();
      return;
    }
    if (stopped || lost) {
      await client.end().catch(() => {});
      return;
    }
    current = client;
    delay = retry.firstMs;
    onNotify();
  };

  connecting = connect();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await connecting;
    const client = current;
    current = undefined;
    await client?.end().catch(() => {});
  };
}
