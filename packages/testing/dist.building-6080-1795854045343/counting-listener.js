import { createServer } from "node:net";
export async function startCountingListener(options = {}) {
    let connections = 0;
    const answer = options.answer;
    const server = createServer((socket) => {
        connections++;
        socket.on("error", () => undefined);
        if (answer === undefined)
            socket.destroy();
        else
            socket.once("data", () => socket.end(answer));
    });
    await new Promise((resolve) => server.listen(0, options.host ?? "127.0.0.1", resolve));
    return {
        port: server.address().port,
        get connections() {
            return connections;
        },
        reset: () => {
            connections = 0;
        },
        stop: () => new Promise((resolve) => server.close(() => resolve())),
    };
}
//# sourceMappingURL=counting-listener.js.map