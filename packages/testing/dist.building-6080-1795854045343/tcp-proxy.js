import { createServer, connect } from "node:net";
/**
 * A TCP forwarder on 127.0.0.1 in front of a real server, so that a test can take that
 * server away (a database outage, a network cut) and bring it back, without stopping it.
 */
export async function startTcpProxy(target) {
    const open = new Set();
    let down = false;
    const server = createServer((client) => {
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
    await new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => resolve());
    });
    const { port } = server.address();
    const cut = () => {
        down = true;
        for (const socket of open)
            socket.resetAndDestroy();
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
            await new Promise((resolve) => server.close(() => resolve()));
        },
    };
}
//# sourceMappingURL=tcp-proxy.js.map