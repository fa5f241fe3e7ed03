import type { Execution, Session, SessionFilters } from "@benchwright/sdk";
import { note, print, printJson, type Context } from "../context.js";
import { UsageError } from "../exit-codes.js";
import { executionFilters, positiveInteger, statesOf, type FilterOptions } from "../filters.js";
import { executionsTable, sessionsTable } from "../tables.js";

export interface LsOptions extends FilterOptions {
  limit?: string;
}

/** `benchwright ls [sessions|executions]`: oldest first, as the server lists them; every match unless `--limit`. */
export async function lsCommand(what: string, options: LsOptions, ctx: Context): Promise<number> {
  const limit = options.limit === undefined ? undefined : positiveInteger(options.limit, "--limit");
  if (what === "sessions") return list(ctx, limit, "sessions", sessionsListing(options, ctx));
  if (what !== "executions") throw new UsageError(`ls lists sessions or executions, not '${what}'`);
  return list(ctx, limit, "executions", executionsListing(options, ctx));
}

/** How to list one kind: a page of at most `limit`, or every match; and the table that shows them. */
interface Listing<T> {
  page(limit: number): Promise<{ items: T[]; nextCursor?: string }>;
  all(): AsyncIterable<T>;
  render(items: T[]): string;
  /** What to say when nothing matches. */
  none: string;
}

function sessionsListing(options: LsOptions, ctx: Context): Listing<Session> {
  for (const flag of ["tool", "workload", "session"] as const) {
    if (options[flag] !== undefined) throw new UsageError(`--${flag} filters executions, not sessions`);
  }
  const filters: SessionFilters = {
    provider: options.provider,
    createdSince: options.since,
    state: statesOf(options.state) as SessionFilters["state"],
  };
  // Without --state the server lists the open sessions only: say so, or "none" reads as "no session at all".
  const none = filters.state
    ? "no sessions match"
    : "no open sessions match (without --state, ls lists open sessions; --state deleted, or active,deleting,deleted, lists deleted ones)";
  return { page: (limit) => ctx.bw.listSessionsPage({ ...filters, limit }), all: () => ctx.bw.sessions(filters), render: sessionsTable, none };
}

function executionsListing(options: LsOptions, ctx: Context): Listing<Execution> {
  const filters = executionFilters(options);
  return {
    page: (limit) => ctx.bw.listExecutionsPage({ ...filters, limit }),
    all: () => ctx.bw.executions(filters),
    render: executionsTable,
    none: "no executions match",
  };
}

async function list<T>(ctx: Context, limit: number | undefined, what: string, listing: Listing<T>): Promise<number> {
  const { items, more } = await collect(limit, listing);
  if (ctx.json) printJson(items);
  else {
    if (items.length === 0) note(listing.none);
    else print(listing.render(items));
    if (more) note(`more ${what} match: raise --limit, or leave it out to list them all`);
  }
  return 0;
}

async function collect<T>(limit: number | undefined, { page, all }: Listing<T>): Promise<{ items: T[]; more: boolean }> {
  if (limit !== undefined) {
    const { items, nextCursor } = await page(limit);
    return { items, more: nextCursor !== undefined };
  }
  const items: T[] = [];
  for await (const item of all()) items.push(item);
  return { items, more: false };
}
