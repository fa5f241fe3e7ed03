import { ExitCode } from "../exit-codes.js";

/** The server's own commands, which `benchwright` hands over when the server is installed beside it. */
export const SERVER_COMMANDS = ["serve", "worker", "sweep", "tokens"] as const;

/**
 * `benchwright serve|worker|sweep|tokens`: the operator's commands live in @benchwright/server (an
 * optional peer: a client needs none of the server's weight), imported only when asked for.
 */
export async function serverCommand(argv: string[]): Promise<number> {
  let server: typeof import("@benchwright/server");
  try {
    server = await import("@benchwright/server");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND" || !String((e as Error).message).includes("@benchwright/server")) throw e;
    // The server is an optional peer: a client installs only what it needs, and is told how to add it.
    process.stderr.write(
      [
        `benchwright ${argv[0]}: the server is not installed beside this command.`,
        "Install it where this command is installed: npm install -g @benchwright/server (until it is published, npm install -g the packed tarballs of the server, engine, catalog and contract: see docs/deployment.md)",
        `(then benchwright ${argv[0]}, or its own command benchwright-server ${argv[0]}), or run it from a clone of the repository: npm ci && npm start.`,
      ].join("\n") + "\n",
    );
    return ExitCode.usage;
  }
  return server.runCli(argv);
}
