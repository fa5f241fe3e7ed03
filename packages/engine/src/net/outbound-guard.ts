import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import type { Duplex } from "node:stream";
import { refusedClass, type RefusedClass } from "./address-class.js";

/**
 * Which addresses the server's own outbound calls (cloud APIs, and whatever else it calls on a
 * configuration's say-so) may reach. Every such call goes through the agents below: the check
 * is made on the address the socket connects to, after DNS, so neither a literal nor a name
 * that resolves to this host, its networks or a metadata service gets a connection.
 */
export interface OutboundPolicy {
  /**
   * `BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS=true`: loopback, private, link-local and metadata
   * addresses may be called too (a cloud inside the operator's network; the tests' doubles).
   */
  allowPrivate: boolean;
}

/** The default: only addresses on the Internet. */
export const PUBLIC_ONLY: OutboundPolicy = Object.freeze({ allowPrivate: false });

/**
 * A connection the policy refused before it was made. The message holds only what the caller
 * gave (host), never what a name resolved to: an answer must not tell the caller the address
 * of a name inside the server's network.
 */
export class OutboundRefused extends Error {
  readonly code = "ERR_OUTBOUND_REFUSED";
  constructor(
    readonly host: string,
    readonly address: string,
    readonly refused: RefusedClass,
  ) {
    super(
      `${host} ${address === host ? "is" : "resolves to"} a ${refused} address, which the server does not call unless BENCHWRIGHT_ALLOW_PRIVATE_ENDPOINTS is set`,
    );
    this.name = "OutboundRefused";
  }
}

export function isOutboundRefused(error: unknown): error is OutboundRefused {
  return error instanceof OutboundRefused || (error as { cause?: unknown })?.cause instanceof OutboundRefused;
}

/** The refusal for connecting to `address` (an IP) for `host`, if the policy refuses it. */
function refusal(policy: OutboundPolicy, host: string, address: string): OutboundRefused | undefined {
  if (policy.allowPrivate) return undefined;
  const refused = refusedClass(address);
  return refused ? new OutboundRefused(host, address, refused) : undefined;
}

/**
 * A socket `lookup` that resolves as dns.lookup does and refuses a name any of whose addresses
 * is refused (which of them the socket would try is not ours to know).
 */
export function guardedLookup(policy: OutboundPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", undefined);
      for (const a of addresses) {
        const refused = refusal(policy, hostname, a.address);
        if (refused) return callback(refused, "", undefined);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

type ConnectOptions = { host?: string | null; hostname?: string | null; lookup?: LookupFunction };
type ConnectCallback = (error: Error | null, socket?: Duplex) => void;

/**
 * net skips `lookup` for an IP literal: that case is checked here, the rest by the lookup. The
 * refusal goes to the agent's callback, so the request fails with it as its error.
 */
function connectGuarded(
  policy: OutboundPolicy,
  options: ConnectOptions,
  callback: ConnectCallback,
  connect: (options: ConnectOptions, callback: ConnectCallback) => Duplex | undefined,
): Duplex | undefined {
  const host = (options.host ?? options.hostname ?? "localhost").replace(/^\[(.*)\]$/, "$1");
  const refused = isIP(host) ? refusal(policy, host, host) : undefined;
  if (refused) {
    process.nextTick(callback, refused);
    return undefined;
  }
  return connect({ ...options, lookup: guardedLookup(policy) }, callback);
}

/** `agent` with each of its connections made through connectGuarded. */
function guard<A extends http.Agent>(agent: A, policy: OutboundPolicy): A {
  const connect = agent.createConnection.bind(agent) as unknown as (options: ConnectOptions, callback: ConnectCallback) => Duplex | undefined;
  agent.createConnection = ((options: ConnectOptions, callback: ConnectCallback) => connectGuarded(policy, options, callback, connect)) as never;
  return agent;
}

export interface GuardedAgents {
  http: http.Agent;
  https: https.Agent;
}

/**
 * Keep-alive agents whose every connection is checked against `policy`: hand them to whatever
 * client makes the calls. `ca` replaces the trusted certificates of TLS connections (tests: a
 * double's own certificate); the system's are trusted without it.
 */
export function guardedAgents(policy: OutboundPolicy, tls: { ca?: string } = {}): GuardedAgents {
  return {
    http: guard(new http.Agent({ keepAlive: true }), policy),
    https: guard(new https.Agent({ keepAlive: true, ...(tls.ca ? { ca: tls.ca } : {}) }), policy),
  };
}
