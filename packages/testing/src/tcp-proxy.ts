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
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
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
    client.pipe(upstream);
    upstream.pipe(client);
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
