import { ExitCode } from "../exit-codes.js";

/** The server's own commands, which `benchwright` hands over when the server is installed beside it. */
export const SERVER_COMMANDS = ["serve", "worker", "sweep"] as const;

/**
 * `benchwright serve|worker|sweep`: the operator's commands live in @benchwright/server (an
 * optional peer: a client needs none of the server's weight), imported only when asked for.
 */
export async function serverCommand(argv: string[]): Promise<number> {
  let server: typeof import("@benchwright/server");
  try {
    server = await import("@benchwright/server");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND" || !String((e as Error).message).includes("@benchwright/server")) throw e;
    // @benchwright/server is not on the registry yet: the advice is what works today.
    process.stderr.write(
      [
        `benchwright ${argv[0]}: the server is not installed beside this command (@benchwright/server is not published yet).`,
        "Run it from the repository: git clone https://github.com/benchwright/benchwright && cd benchwright && npm ci && npm start",
        `(it listens on 127.0.0.1:5000; there, npx benchwright ${argv[0]} works too), and point this command at it with --url or BENCHWRIGHT_URL.`,
      ].join("\n") + "\n",
    );
    return ExitCode.usage;
  }
  return server.runCli(argv);
}
