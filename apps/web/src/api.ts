import { BenchwrightProblemError, createClient, type BenchwrightClient } from "@benchwright/sdk";

const TOKEN_KEY = "benchwright.token";

/**
 * The API's root: the page's own origin (the server serves the dashboard at /ui/), or
 * `?api=http://127.0.0.1:4010` to use another server, such as the Prism mock.
 */
export function apiBase(location: Location = window.location): string {
  return new URLSearchParams(location.search).get("api") ?? location.origin;
}

let client: BenchwrightClient | undefined;

/** The SDK client, with the token the user gave in this tab, if any. */
export function api(): BenchwrightClient {
  client ??= createClient({ baseUrl: apiBase(), token: sessionStorage.getItem(TOKEN_KEY) ?? undefined });
  return client;
}

/** Kept for this tab only: a token in sessionStorage goes when the tab closes. */
export function setToken(token: string): void {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
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
