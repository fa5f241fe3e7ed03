import { BenchwrightError } from "@benchwright/engine";

/** Requests a second a client address may send with no token or a bad one, and how many at once after a pause. */
export interface FailedAuthRate {
  rps: number;
  burst: number;
}

/** Enough for a person mistyping a token or a script with a stale one; far below what a guesser needs. */
const DEFAULT_FAILED_AUTH_RATE: FailedAuthRate = { rps: 1, burst: 60 };

/** Addresses (and known tokens) remembered at most: a flood of new ones costs memory no further. */
const MAX_ENTRIES = 10_000;

/** How long a token that was admitted passes an address's limit without a fresh lookup saying so. */
const KNOWN_TOKEN_MS = 10 * 60_000;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * The limit on requests that no token admits, by client address, in this process's memory (each
 * server counts its own: a guesser spread over N servers gets N times the rate). A request takes
 * its place before its token is looked up, so that a flood costs no lookups past the burst, and
 * gives it back once its token is admitted: only refusals count. A token admitted before passes an
 * exhausted address all the same (it is known by its digest here), so a flood from one address,
 * or from the proxy in front, does not lock out the valid tokens already in use there.
 */
export class FailedAuthLimit {
  readonly #rate: FailedAuthRate;
  readonly #now: () => number;
  readonly #buckets = new Map<string, Bucket>();
  readonly #known = new Map<string, number>();

  constructor(rate: FailedAuthRate = DEFAULT_FAILED_AUTH_RATE, now: () => number = Date.now) {
    this.#rate = rate;
    this.#now = now;
  }

  /**
   * Takes a place for a request from `address` whose token (its digest, hex) is `token`, or throws
   * `rate_limited` with the seconds until one frees. The function returned gives the place back.
   */
  take(address: string, token: string | undefined): () => void {
    const now = this.#now();
    if (token !== undefined && (this.#known.get(token) ?? 0) > now) return () => {};
    const bucket = this.#refilled(address, now);
    if (bucket.tokens < 1) {
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / this.#rate.rps));
      throw new BenchwrightError(
        "rate_limited",
        `${address} sent more than ${this.#rate.burst} requests that no token admitted; try again in ${retryAfter} s with a valid API token`,
        { retry_after: retryAfter },
      );
    }
    bucket.tokens -= 1;
    let given = false;
    return () => {
      if (given) return;
      given = true;
      bucket.tokens = Math.min(this.#rate.burst, bucket.tokens + 1);
    };
  }

  /** A token was admitted: it passes an exhausted address for a while. */
  admitted(token: string): void {
    this.#known.delete(token);
    this.#known.set(token, this.#now() + KNOWN_TOKEN_MS);
    if (this.#known.size > MAX_ENTRIES) this.#known.delete(this.#known.keys().next().value as string);
  }

  /** A token was refused (revoked, expired): it passes no limit any more. */
  refused(token: string): void {
    this.#known.delete(token);
  }

  #refilled(address: string, now: number): Bucket {
    let bucket = this.#buckets.get(address);
    if (bucket) {
      bucket.tokens = Math.min(this.#rate.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.#rate.rps);
      bucket.at = now;
      // Most recently used last: the first is the one to forget.
      this.#buckets.delete(address);
    } else {
      bucket = { tokens: this.#rate.burst, at: now };
    }
    this.#buckets.set(address, bucket);
    if (this.#buckets.size > MAX_ENTRIES) this.#buckets.delete(this.#buckets.keys().next().value as string);
    return bucket;
  }
}
