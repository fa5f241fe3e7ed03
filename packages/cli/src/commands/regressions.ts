import type { ChangeFilters } from "@benchwright/sdk";
import { note, print, printJson, type Context } from "../context.js";
import { resolveIdAmong } from "../ids.js";
import { changesTable } from "../series-text.js";

export interface RegressionsOptions {
  all?: boolean;
  improvements?: boolean;
}

/** `benchwright regressions`: the open regressions of every series, newest first; `--all` in every state, `--improvements` the other way. */
export async function regressionsCommand(options: RegressionsOptions, ctx: Context): Promise<number> {
  const filters: ChangeFilters = { direction: options.improvements ? "improvement" : "regression", state: options.all ? undefined : "open" };
  // Without a limit the server answers every match at once.
  const changes = await ctx.bw.listChanges(filters);
  const what = `${options.all ? "" : "open "}${options.improvements ? "improvements" : "regressions"}`;
  if (ctx.json) printJson(changes);
  else if (changes.length === 0) note(`no ${what}`);
  else print(changesTable(changes, true));
  return 0;
}

/** `benchwright regressions ack <id>`: the change acknowledged (no longer open). */
export async function acknowledgeCommand(id: string, ctx: Context): Promise<number> {
  const changeId = await resolveIdAmong(id, () => ctx.bw.listChanges({ fields: "id" }), "change");
  const change = await ctx.bw.acknowledgeChange(changeId);
  if (ctx.json) printJson(change);
  else print(changesTable([change], true));
  return 0;
}
