import type { Context } from "./context.js";
import { UsageError } from "./exit-codes.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The dashboard shows an id's first 8 characters: that much or more of one, dashes as in the id. */
const PREFIX = /^[0-9a-f]{8}[0-9a-f-]{0,27}$/i;

/** The one id of `ids` that starts with `prefix`; none, or several, is a usage error that says which. */
export function matchPrefix(prefix: string, ids: string[], what: string): string {
  const lower = prefix.toLowerCase();
  const matches = ids.filter((id) => id.toLowerCase().startsWith(lower));
  if (matches.length === 1) return matches[0];
  if (matches.length === 0) throw new UsageError(`no ${what}'s id starts with '${prefix}'`);
  throw new UsageError(`'${prefix}' is the start of ${matches.length} ${what}s' ids; give more of it:\n  ${matches.join("\n  ")}`);
}

/**
 * An execution's id from what the user typed: a whole id as it is, a prefix of 8 characters
 * or more (as the dashboard shows ids) looked up among the executions' ids, anything else
 * as typed, for the server to answer.
 */
export async function resolveExecutionId(ctx: Context, typed: string): Promise<string> {
  return (await resolveExecutionIds(ctx, [typed]))[0];
}

/** Each of `typed` as {@link resolveExecutionId} reads it, the executions' ids read once for all. */
export async function resolveExecutionIds(ctx: Context, typed: string[]): Promise<string[]> {
  typed.forEach(checkLength);
  if (!typed.some(isPrefix)) return typed;
  const ids: string[] = [];
  // Only the ids travel: the server masks each record to its `id`.
  for await (const e of ctx.bw.executions({ fields: "id", pageSize: 1000 })) ids.push(e.id);
  return typed.map((t) => (isPrefix(t) ? matchPrefix(t, ids, "execution") : t));
}

const isPrefix = (typed: string) => !UUID.test(typed) && PREFIX.test(typed);

/** Hex (and dashes) shorter than the 8 characters the dashboard shows: too little of an id to look up. */
const TOO_SHORT = /^[0-9a-f-]{1,7}$/i;

/** A usage error for a prefix under 8 characters, which the server would otherwise refuse as a malformed UUID. */
function checkLength(typed: string): void {
  if (TOO_SHORT.test(typed))
    throw new UsageError(`'${typed}' is too short to name an id: give at least 8 of its characters (as the dashboard shows them), or the whole id`);
}

/** Any record's id as {@link resolveExecutionId} reads an execution's: `records` (masked to their ids) are read only for a prefix. */
export async function resolveIdAmong(typed: string, records: () => Promise<Array<{ id: string }>>, what: string): Promise<string> {
  checkLength(typed);
  if (!isPrefix(typed)) return typed;
  return matchPrefix(
    typed,
    (await records()).map((r) => r.id),
    what,
  );
}
