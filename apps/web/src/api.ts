import { BenchwrightProblemError, createClient, type BenchwrightClient } from "@benchwright/sdk";

/** Each API origin's token, under this prefix: a token goes only to the origin it was entered for. */
const TOKEN_KEY = "benchwright.token@";
/** The other API origins the user chose to use in this tab. */
const CHOSEN_KEY = "benchwright.api-chosen@";

/**
 * The API's root: the page's own origin (the server serves the dashboard at /ui/), or the server
 * `?api=http://127.0.0.1:4010` names (another server, the Prism mock) once the user says so. A
 * link of any site can carry `?api=`: another origin is used only when the user confirms it (once
 * per tab), and anything else leaves the page on its own origin.
 */
export function chooseApiBase(location: Pick<Location, "search" | "origin">, ask: (question: string) => boolean, remembered: Storage): string {
  const named = new URLSearchParams(location.search).get("api");
  if (named === null || !URL.canParse(named)) return location.origin;
  const url = new URL(named);
  if (url.protocol !== "http:" && url.protocol !== "https:") return location.origin;
  if (url.origin === location.origin || remembered.getItem(CHOSEN_KEY + url.origin) === "yes") return named;
  const question =
    `This page was opened to show the Benchwright API at ${url.origin}, not the server that serves it (${location.origin}). ` +
    "Use that API? Choose OK only if you meant to: a token you enter then is sent there.";
  if (!ask(question)) return location.origin;
  remembered.setItem(CHOSEN_KEY + url.origin, "yes");
  return named;
}

let base: string | undefined;

/** The API's root for this page, chosen once (see chooseApiBase). */
export function apiBase(): string {
  base ??= chooseApiBase(window.location, (question) => window.confirm(question), sessionStorage);
  return base;
}

/** Where the token of the page's API is kept: keyed by that API's origin. */
function tokenKey(): string {
  return TOKEN_KEY + new URL(apiBase()).origin;
}

let client: BenchwrightClient | undefined;

/** The SDK client, with the token the user gave in this tab for this API's origin, if any. */
export function api(): BenchwrightClient {
  client ??= createClient({ baseUrl: apiBase(), token: sessionStorage.getItem(tokenKey()) ?? undefined });
  return client;
}

/** Kept for this tab only: a token in sessionStorage goes when the tab closes. */
export function setToken(token: string): void {
  if (token) sessionStorage.setItem(tokenKey(), token);
  else sessionStorage.removeItem(tokenKey());
  client = undefined;
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof BenchwrightProblemError && error.status === 401;
}

/** What to tell the user about a failed call. */
export function describeError(error: unknown): string {
  if (error instanceof BenchwrightProblemError) return `${error.status} ${error.problem.title}: ${error.problem.detail ?? ""}`.trim();
  return error instanceof Error ? error.message : String(error);
}
