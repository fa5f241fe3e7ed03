import { parseArgs } from "node:util";
import { BenchwrightError, type Engine, type TokenRole } from "@benchwright/engine";

export const TOKENS_USAGE = `usage: benchwright-server tokens create --principal NAME --role viewer|operator|admin [--name TEXT] [--expires TIME]
       benchwright-server tokens list
       benchwright-server tokens revoke TOKEN_ID
       (each with --create-database to make the database where there is none)

  create   makes a token and prints it once (with its record); only its SHA-256 is kept
  list     prints every token's record (never a token), revoked and expired ones too
  revoke   revokes the token at once on every server sharing the database

They open the server's database (BENCHWRIGHT_DATA_DIR, default .benchwright in the current
folder, or DATABASE_URL) and say which on stderr: run them where the server runs.`;

/**
 * `benchwright-server tokens …`: the admin API's token operations, on the server's own database
 * (the same environment as serve), for an operator at the host. Returns the exit code.
 */
export async function runTokensCommand(args: string[], openEngine: () => Promise<Engine>, out: (line: string) => void): Promise<number> {
  const [action, ...rest] = args;
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(action, rest);
  } catch (e) {
    out(`${(e as Error).message}\n${TOKENS_USAGE}`);
    return 2;
  }
  const engine = await openEngine();
  try {
    if (parsed.action === "create") out(JSON.stringify(await engine.createToken(parsed.token), null, 2));
    else if (parsed.action === "list") out(JSON.stringify((await engine.listTokens()).items, null, 2));
    else {
      await engine.revokeToken(parsed.id);
      out(`revoked ${parsed.id}`);
    }
    return 0;
  } catch (e) {
    if (!(e instanceof BenchwrightError)) throw e;
    out(`${e.code}: ${e.detail}`);
    return 2;
  } finally {
    await engine.close();
  }
}

const ROLES: readonly string[] = ["viewer", "operator", "admin"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parse(action: string | undefined, rest: string[]) {
  if (action === "list") {
    parseArgs({ args: rest, options: {} });
    return { action } as const;
  }
  if (action === "revoke") {
    const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true });
    if (positionals.length !== 1 || !UUID.test(positionals[0])) throw new Error("revoke takes one token id (a UUID, as `tokens list` prints it)");
    return { action, id: positionals[0] } as const;
  }
  if (action === "create") {
    const { values } = parseArgs({
      args: rest,
      options: { principal: { type: "string" }, role: { type: "string" }, name: { type: "string" }, expires: { type: "string" } },
    });
    if (!values.principal || !/^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/.test(values.principal))
      throw new Error("--principal NAME is required (letters, digits, . _ @ -)");
    if (!values.role || !ROLES.includes(values.role)) throw new Error(`--role is required: one of ${ROLES.join(", ")}`);
    return { action, token: { principal: values.principal, role: values.role as TokenRole, name: values.name, expires: values.expires } } as const;
  }
  throw new Error(`unknown tokens action ${action ?? "(none)"}`);
}
