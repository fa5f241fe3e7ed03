import { JWT } from "google-auth-library";
import type { GuardedFetch } from "../../net/guarded-fetch.js";

/** What gives the headers that authenticate a call (google-auth-library's clients, the tests' double). */
export interface HeaderSource {
  getRequestHeaders(url?: string | URL): Promise<Headers | Record<string, string>>;
}

/** What Google's REST transport (google-gax's fallback) asks of its auth client. */
export interface GceAuth extends HeaderSource {
  fetch(url: string | URL, init: { method?: string; headers?: HeadersInit; body?: string | Uint8Array | null; signal?: AbortSignal | null }): Promise<Response>;
}

const COMPUTE_SCOPE = "https://www.googleapis.com/auth/cloud-platform";

/** The service account's client; its token requests go through `fetch` too. */
export function serviceAccountAuth(email: string, privateKey: string, fetch: GuardedFetch): HeaderSource {
  return new JWT({ email, key: privateKey, scopes: [COMPUTE_SCOPE], transporterOptions: { fetchImplementation: fetch as never } });
}

/**
 * An auth client that only lends `auth` its headers: every API call goes through `fetch` (the
 * outbound guard's), whatever agent or fetch google-gax and the auth client would have used.
 */
export function guardedAuth(auth: HeaderSource, fetch: GuardedFetch): GceAuth {
  return {
    getRequestHeaders: (url) => auth.getRequestHeaders(url),
    async fetch(url, init) {
      const headers = new Headers(init.headers);
      for (const [name, value] of new Headers(await auth.getRequestHeaders(url))) headers.set(name, value);
      return fetch(url, { method: init.method, headers, body: init.body, signal: init.signal });
    },
  };
}
