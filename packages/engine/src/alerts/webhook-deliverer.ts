import type { EngineLog } from "../engine-log.js";
import { LeaseLoop, leaseOwner } from "../lease-loop.js";
import type { ClaimedDelivery, AttemptOutcome } from "../model/webhooks.js";
import { guardedFetch, type GuardedFetch } from "../net/guarded-fetch.js";
import { isOutboundRefused, OutboundRefused } from "../net/outbound-guard.js";
import { Scrubber } from "../secrets/scrub.js";
import type { SecretBox } from "../secrets/secret-box.js";
import type { Store } from "../store/store.js";
import { DEFAULT_RETRY_DELAYS_MS, retryDelay } from "./backoff.js";
import { webhookBody } from "./webhook-bodies.js";
import { SIGNATURE_HEADER, signWebhook } from "./webhook-signature.js";
import { refusalText } from "./webhook-url.js";

/** The engine's options for webhooks (EngineOptions.webhooks). */
export interface WebhookOptions {
  /** `BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS=true`: webhooks may be on loopback, private and link-local addresses. */
  allowPrivate?: boolean;
  /** The waits after each failed attempt; the delivery fails once they are spent. Default DEFAULT_RETRY_DELAYS_MS. */
  retryDelaysMs?: readonly number[];
  /** How long an attempt may take, answer included. Default 10 s. */
  timeoutMs?: number;
  /** How often due deliveries are looked for (those enqueued here are sent at once), as often as the step worker sweeps. Default 2 s. */
  pollMs?: number;
  /** Whether this process sends deliveries; default true. */
  deliver?: boolean;
}

export interface WebhookDelivererOptions extends WebhookOptions {
  store: Store;
  /** Opens the webhooks' signing secrets. */
  secrets: SecretBox;
  log?: EngineLog;
  /** Deliveries sent at once by this process. Default 8. */
  concurrency?: number;
  /** A lone embedded server: every lease in the database is its own, from before a stop. */
  soleProcess?: boolean;
}

/** A URL's path or query this long may be a token (Slack's paths are 44 characters). */
const MIN_URL_TOKEN_LENGTH = 16;

/**
 * This process's sender of webhook deliveries. It claims due deliveries nobody holds (a lease
 * timed by the database's clock, as the step worker's and the run driver's: one process sends
 * each attempt), POSTs each signed, and records the attempt: delivered on a 2xx, else pending
 * again after the next wait of the schedule, or failed once the schedule is spent. Connections
 * go through the outbound guard, so a name that resolves to an address the policy refuses is
 * refused when connecting, whatever it resolved to when the webhook was made.
 */
export class WebhookDeliverer {
  readonly owner = leaseOwner();
  readonly #store: Store;
  readonly #secrets: SecretBox;
  readonly #log: EngineLog;
  readonly #fetch: GuardedFetch;
  readonly #delays: readonly number[];
  readonly #timeoutMs: number;
  readonly #leaseMs: number;
  readonly #concurrency: number;
  readonly #enabled: boolean;
  readonly #soleProcess: boolean;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #stopping = new AbortController();
  readonly #loop: LeaseLoop;
  #started = false;
  #stopped = false;

  constructor(options: WebhookDelivererOptions) {
    this.#store = options.store;
    this.#secrets = options.secrets;
    this.#log = options.log ?? (() => {});
    this.#fetch = guardedFetch({ allowPrivate: options.allowPrivate === true });
    this.#delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    // Longer than an attempt can take: a lease never runs out under a live sender.
    this.#leaseMs = this.#timeoutMs * 3 + 5_000;
    this.#concurrency = options.concurrency ?? 8;
    this.#enabled = options.deliver !== false;
    this.#soleProcess = options.soleProcess === true;
    this.#loop = new LeaseLoop({ look: () => this.#sweep(), everyMs: options.pollMs ?? 2_000, log: this.#log, what: "webhook delivery sweep" });
  }

  /** Starts sending: due deliveries now, and every `pollMs`. */
  start(): void {
    if (!this.#enabled || this.#started || this.#stopped) return;
    this.#started = true;
    if (this.#soleProcess) {
      this.#loop.queue(() =>
        this.#store.webhooks.release().then(
          () => undefined,
          (e: Error) => this.#log(`cannot free the webhook deliveries' leases: ${e.message}`, { level: "warn" }),
        ),
      );
    }
    this.#loop.start();
  }

  /** Looks for due deliveries now (one was just enqueued here, or a slot freed), after the look under way. */
  wake(): void {
    if (this.#started && !this.#stopped) void this.#loop.wake();
  }

  /** Stops: the attempts under way get until `deadlineMs`, then are cut; what this process held is let go for others. */
  async stop(deadlineMs = 5_000): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    await this.#loop.stop();
    await Promise.race([Promise.allSettled([...this.#inFlight]), new Promise((r) => setTimeout(r, deadlineMs).unref())]);
    this.#stopping.abort();
    await Promise.allSettled([...this.#inFlight]);
    if (!this.#started) return;
    await this.#store.webhooks
      .release(this.owner)
      .catch((e: Error) => this.#log(`cannot hand webhook deliveries back: ${e.message}; they are sent once their leases run out`, { level: "warn" }));
  }

  async #sweep(): Promise<void> {
    const room = this.#concurrency - this.#inFlight.size;
    if (this.#stopped || room <= 0) return;
    for (const delivery of await this.#store.webhooks.claimDue(this.owner, this.#leaseMs, room)) {
      const sent: Promise<void> = this.#attempt(delivery)
        .catch((e: Error) => this.#log(`webhook delivery ${delivery.id}: ${e.message}`, { level: "error" }))
        .finally(() => {
          this.#inFlight.delete(sent);
          this.wake();
        });
      this.#inFlight.add(sent);
    }
  }

  /** Sends one attempt of a claimed delivery and records how it went. */
  async #attempt(delivery: ClaimedDelivery): Promise<void> {
    let secret: string;
    try {
      secret = this.#secrets.open<string>(delivery.secret_sealed);
    } catch {
      // Sealed with another key: no attempt can sign it, now or later.
      const error = "the webhook's secret cannot be opened: it was sealed with another BENCHWRIGHT_SECRET_KEY";
      await this.#store.webhooks.recordAttempt(delivery.id, this.owner, { state: "failed", status: null, error, retryInMs: null });
      this.#log(`webhook delivery ${delivery.id}: ${error}`, { level: "error" });
      return;
    }
    // The URL may be a credential itself (Slack's are): neither it nor the secret is written
    // anywhere. Its path and query are masked when long enough to be a token, not a word.
    const { pathname, search } = new URL(delivery.url);
    const parts = [pathname.slice(1), search.slice(1)].filter((p) => p.length >= MIN_URL_TOKEN_LENGTH);
    const scrubber = new Scrubber().add(secret, delivery.url, ...parts);
    const body = webhookBody(delivery.format, {
      event: delivery.event,
      eventKey: delivery.event_key,
      created: new Date(delivery.created),
      payload: delivery.payload,
    });
    const answer = await this.#post(delivery, secret, body);
    if (this.#stopping.signal.aborted) return; // cut by a stop: the delivery is let go and sent again
    const attempts = delivery.attempts + 1;
    const ok = answer.status !== null && answer.status >= 200 && answer.status < 300;
    const delay = ok ? undefined : retryDelay(attempts, this.#delays);
    const outcome: AttemptOutcome = {
      state: ok ? "delivered" : delay === undefined ? "failed" : "pending",
      status: answer.status,
      error: answer.error === null ? null : scrubber.scrub(answer.error),
      retryInMs: delay ?? null,
    };
    const recorded = await this.#store.webhooks.recordAttempt(delivery.id, this.owner, outcome);
    const host = new URL(delivery.url).host;
    if (!recorded) this.#log(`webhook delivery ${delivery.id} was taken over before its attempt was recorded`, { level: "warn" });
    else if (outcome.state === "failed")
      this.#log(`webhook delivery ${delivery.id} to ${host} failed after ${attempts} attempts: ${outcome.error}`, { level: "warn" });
    else if (outcome.state === "pending")
      this.#log(`webhook delivery ${delivery.id} to ${host}: attempt ${attempts} failed (${outcome.error}); next in ${delay} ms`, { level: "info" });
  }

  /** POSTs the body; its status (null when none came) and what went wrong, unscrubbed. */
  async #post(delivery: ClaimedDelivery, secret: string, body: string): Promise<{ status: number | null; error: string | null }> {
    const signal = AbortSignal.any([AbortSignal.timeout(this.#timeoutMs), this.#stopping.signal]);
    try {
      const res = await this.#fetch(delivery.url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "Benchwright-Webhooks/1",
          "Benchwright-Event": delivery.event,
          "Benchwright-Delivery": delivery.id,
          "Idempotency-Key": delivery.event_key,
          [SIGNATURE_HEADER]: signWebhook(secret, body),
        },
        body,
        signal,
      });
      // The body is never read: a receiver's error page may echo what it was sent or hold its own
      // secrets, and last_error and the log show the status only, as the cloud drivers' errors do.
      await res.body?.cancel().catch(() => {});
      if (res.status >= 200 && res.status < 300) return { status: res.status, error: null };
      const redirect = res.status >= 300 && res.status < 400 ? " (redirects are not followed)" : "";
      return { status: res.status, error: `HTTP ${res.status}${redirect}` };
    } catch (e) {
      return { status: null, error: describeFailure(e, this.#timeoutMs) };
    }
  }
}

/** Node's network error codes, said without the addresses their messages name. */
const NETWORK_FAILURES: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection closed while sending",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed (temporary)",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
};

/**
 * What went wrong with an attempt that got no answer. Never the address a name resolved to
 * (as the outbound guard's own refusals), so a delivery's record does not map the server's network.
 */
export function describeFailure(error: unknown, timeoutMs: number): string {
  if (isOutboundRefused(error)) {
    const denial = error instanceof OutboundRefused ? error : ((error as { cause: unknown }).cause as OutboundRefused);
    return `refused: ${refusalText(denial)}`;
  }
  const e = (error ?? {}) as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError") return `no answer within ${timeoutMs / 1000} s`;
  const code = e.code ?? e.cause?.code;
  if (code && NETWORK_FAILURES[code]) return NETWORK_FAILURES[code];
  // TLS and HTTP parser codes name no address (CERT_HAS_EXPIRED, HPE_INVALID_CONSTANT...).
  if (code) return code.startsWith("ERR_") || code.startsWith("E") ? `network error ${code}` : `${code}: ${e.message ?? ""}`.trim();
  return "the request failed";
}
