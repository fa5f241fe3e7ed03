import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { guardedAgents, type OutboundPolicy } from "./outbound-guard.js";

/** What the callers here send: a method, headers, and a body in one piece. */
interface GuardedRequestInit {
  method?: string;
  headers?: HeadersInit;
  body?: string | Uint8Array | URLSearchParams | null;
  signal?: AbortSignal | null;
}

export type GuardedFetch = (input: string | URL, init?: GuardedRequestInit) => Promise<Response>;

/** Statuses whose Response may hold no body. */
const NO_BODY = new Set([101, 204, 205, 304]);

/**
 * A fetch over node:http whose connections go through the outbound guard (global fetch takes
 * no agent). It follows no redirect: a 3xx comes back as it is, for the caller to take as a
 * failure, so a remote cannot send the request (and its credentials) on to another address.
 */
export function guardedFetch(policy: OutboundPolicy): GuardedFetch {
  const agents = guardedAgents(policy);
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input);
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        reject(new TypeError(`${url.protocol} URLs are not called`));
        return;
      }
      const secure = url.protocol === "https:";
      const headers: Record<string, string> = Object.fromEntries(new Headers(init.headers ?? {}));
      const body = init.body instanceof URLSearchParams ? init.body.toString() : (init.body ?? undefined);
      if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
      const req = (secure ? https : http).request(url, {
        method: init.method ?? "GET",
        headers,
        agent: secure ? agents.https : agents.http,
        signal: init.signal ?? undefined,
      });
      req.once("error", reject);
      req.once("response", (res) => {
        const responseHeaders = new Headers();
        for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        const status = res.statusCode ?? 502;
        if (NO_BODY.has(status)) res.resume();
        const stream = NO_BODY.has(status) ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        resolve(new Response(stream as never, { status, statusText: res.statusMessage ?? "", headers: responseHeaders }));
      });
      req.end(body);
    });
}
