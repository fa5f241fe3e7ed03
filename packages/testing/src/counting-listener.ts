import { createServer, type AddressInfo } from "node:net";

/**
 * A TCP listener standing for a service the server must not reach (on loopback: "inside its
 * network"): it counts the connections it gets, which a test of the outbound guard expects to
 * stay at none, and answers each request with `answer` (raw HTTP), or hangs up at once.
 */
export interface CountingListener {
  port: number;
  readonly connections: number;
  /** What came on each connection before the answer (its request's head, with `answer` set): for a test that looks for a header. */
  readonly received: readonly string[];
  reset(): void;
  stop(): Promise<void>;
}

export async function startCountingListener(options: { host?: string; answer?: string } = {}): Promise<CountingListener> {
  let connections = 0;
  const received: string[] = [];
  const answer = options.answer;
  const server = createServer((socket) => {
    connections++;
    socket.on("error", () => undefined);
    if (answer === undefined) socket.destroy();
    else
      socket.once("data", (data) => {
        received.push(data.toString("latin1"));
        socket.end(answer);
      });
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    received,
    reset: () => {
      connections = 0;
      received.length = 0;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
