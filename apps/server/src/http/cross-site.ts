import { isIP } from "node:net";
import type { Request, RequestHandler } from "express";
import { BenchwrightError } from "@benchwright/engine";
import { normalizeOrigin } from "./cors.js";

/**
 * DNS rebinding: a page of `http://evil.example:5000` whose name is made to resolve to 127.0.0.1
 * calls the server on loopback as its own origin, CORS and all, and reads what it answers. The
 * browser still names its site in `Host`: without a token, a request must name the server by one
 * of its own names. Those are `localhost`, a loopback address, the address the request came in
 * on (an address is never rebound: only names are), the configured HOST, and the hosts listed
 * in BENCHWRIGHT_ALLOWED_HOSTS (`*` turns the check off). The port is not compared: a rebinding
 * page can only change names, and a tunnel (`ssh -L 8080:localhost:5000`) changes the port.
 * A request without `Host` (HTTP/1.0) names nothing a browser could have rebound: it passes.
 */
export function ownHostsOnly(allowed: readonly string[]): RequestHandler {
  if (allowed.some((h) => h.trim() === "*")) return (_req, _res, next) => next();
  const entries = allowed.map(parseHostEntry).filter((e): e is HostEntry => e !== undefined);
  return (req, _res, next) => {
    const header = req.headers.host;
    if (header === undefined) return next();
    const named = parseHostEntry(header);
    if (named && (isOwnName(named.name, req) || entries.some((e) => e.name === named.name && (e.port === undefined || e.port === named.port)))) {
      return next();
    }
    next(
      new BenchwrightError(
        "host_not_allowed",
        `This server does not answer to the host '${header}': without BENCHWRIGHT_API_TOKEN it answers only to its own names; list others in BENCHWRIGHT_ALLOWED_HOSTS`,
      ),
    );
  };
}

/**
 * A page of another origin may send a POST without asking first (a CORS "simple request": no
 * body, or a `text/plain` or form body), and the server acts on it before the browser hides the
 * answer. A request that may change something (any method but GET, HEAD and OPTIONS) is refused
 * when its `Origin` is neither the server's own (the origin `Host` names) nor one that
 * BENCHWRIGHT_CORS_ORIGINS allows (`*` allows any but the opaque `null`, as in cors.ts), and,
 * without `Origin`, when the browser says it is `Sec-Fetch-Site: cross-site`. Clients that are
 * not browsers (the SDK in Node, curl) send neither header. With a token the bearer header
 * cannot be sent across origins without a preflight anyway; the check is the same, so that a
 * server behaves alike with or without one.
 */
export function sameOriginChanges(corsOrigins: readonly string[]): RequestHandler {
  const listed = new Set(corsOrigins.map(normalizeOrigin));
  const any = listed.delete("*");
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get("origin");
    if (origin !== undefined) {
      const normalized = normalizeOrigin(origin);
      if (listed.has(normalized) || (any && normalized !== "null") || isOwnOrigin(origin, req)) return next();
      return next(refused(`the origin '${origin}'`));
    }
    if (req.get("sec-fetch-site")?.trim().toLowerCase() === "cross-site") return next(refused("a page of another site"));
    next();
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

function refused(who: string): BenchwrightError {
  return new BenchwrightError(
    "cross_site_request",
    `A request from ${who} may not change anything here: only the server's own pages and the origins in BENCHWRIGHT_CORS_ORIGINS may`,
  );
}

/** Whether `Origin` is the origin the request's own `Host` names (the default port of its scheme left out by both). */
function isOwnOrigin(origin: string, req: Request): boolean {
  const host = req.headers.host;
  if (!host) return false;
  try {
    const page = new URL(origin);
    if (page.protocol !== "http:" && page.protocol !== "https:") return false;
    return new URL(`${page.protocol}//${host}`).host === page.host;
  } catch {
    return false;
  }
}

interface HostEntry {
  /** Lower case, without brackets or a final dot. */
  name: string;
  port?: string;
}

/** `name`, `name:port`, `[v6]` or `[v6]:port`; undefined when it is none of them. */
export function parseHostEntry(value: string): HostEntry | undefined {
  const text = value.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(text);
  if (bracketed) return isIP(bracketed[1]) === 6 ? { name: bracketed[1], port: bracketed[2] } : undefined;
  // A bare IPv6 address (in HOST, say): its colons are no port.
  if (isIP(text) === 6) return { name: text };
  const named = /^([a-z0-9_.-]+?)\.?(?::(\d{1,5}))?$/.exec(text);
  return named ? { name: named[1], port: named[2] } : undefined;
}

function isOwnName(name: string, req: Request): boolean {
  if (name === "localhost" || name === "::1" || (isIP(name) === 4 && name.startsWith("127."))) return true;
  // The address the connection came in on, as the client dialled it (IPv4 arrives mapped on a dual-stack socket).
  const local = req.socket.localAddress?.replace(/^::ffff:(?=\d+\.)/, "").toLowerCase();
  return local !== undefined && name === local;
}
