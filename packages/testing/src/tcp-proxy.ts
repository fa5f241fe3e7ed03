import { createServer, connect, type Server, type Socket } from "node:net";

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
 * With `delayMs`, every byte takes half of it each way: a round trip through the proxy takes
 * `delayMs` more, as over a distant network (bench/step-overhead.mjs --delay-ms).
 */
export async function startTcpProxy(target: { host: string; port: number }, { delayMs = 0 }: { delayMs?: number } = {}): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let down = false;
  const server: Server = createServer((client) => {
    if (down) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
    if (delayMs > 0) {
      forwardLate(client, upstream, delayMs / 2);
      forwardLate(upstream, client, delayMs / 2);
    } else {
      client.pipe(upstream);
      upstream.pipe(client);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as { port: number };
  const cut = () => {
    down = true;
    for (const socket of open) socket.resetAndDestroy();
    open.clear();
  };
  return {
    port,
    cut,
    restore() {
      down = false;
    },
    async close() {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Forwards what `from` sends to `to` `ms` later, in order (timers of one duration fire in the order they were set), its end too. */
function forwardLate(from: Socket, to: Socket, ms: number): void {
  from.setNoDelay(true);
  to.setNoDelay(true);
  from.on("data", (chunk: Buffer) => setTimeout(() => to.destroyed || to.write(chunk), ms));
  from.on("end", () => setTimeout(() => to.destroyed || to.end(), ms));
}
