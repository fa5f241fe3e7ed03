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
  if (what === "sessions") {
    for (const flag of ["tool", "workload", "session"] as const) {
      if (options[flag] !== undefined) throw new UsageError(`--${flag} filters executions, not sessions`);
    }
    const filters: SessionFilters = {
      provider: options.provider,
      createdSince: options.since,
      state: statesOf(options.state) as SessionFilters["state"],
    };
    const { items, more } = await collect(
      limit,
      (l) => ctx.bw.listSessionsPage({ ...filters, limit: l }),
      () => ctx.bw.sessions(filters),
    );
    show(ctx, items, sessionsTable, "sessions", more);
    return 0;
  }
  if (what !== "executions") throw new UsageError(`ls lists sessions or executions, not '${what}'`);
  const filters = executionFilters(options);
  const { items, more } = await collect(
    limit,
    (l) => ctx.bw.listExecutionsPage({ ...filters, limit: l }),
    () => ctx.bw.executions(filters),
  );
  show(ctx, items, executionsTable, "executions", more);
  return 0;
}

async function collect<T>(
  limit: number | undefined,
  page: (limit: number) => Promise<{ items: T[]; nextCursor?: string }>,
  all: () => AsyncIterable<T>,
): Promise<{ items: T[]; more: boolean }> {
  if (limit !== undefined) {
    const { items, nextCursor } = await page(limit);
    return { items, more: nextCursor !== undefined };
  }
  const items: T[] = [];
  for await (const item of all()) items.push(item);
  return { items, more: false };
}

function show<T extends Session | Execution>(ctx: Context, items: T[], render: (items: T[]) => string, what: string, more: boolean): void {
  if (ctx.json) {
    printJson(items);
    return;
  }
  if (items.length === 0) note(`no ${what} match`);
  else print(render(items));
  if (more) note(`more ${what} match: raise --limit, or leave it out to list them all`);
}
