import type { Db } from "../store/db.js";
import { TOKENS_CHANNEL } from "../store/tokens-repository.js";

/** setTimeout's longest wait; a later expiry is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The token a request came with, as far as its open streams need it. */
export interface WatchedToken {
  id: string;
  expires: Date | null;
}

/**
 * Ends what a token holds open (event streams, followed logs) when it stops being valid: at its
 * expiry (a timer), and at its revocation on any server (the revocation NOTIFYs TOKENS_CHANNEL,
 * and each server then asks which of its watched tokens are revoked; it asks again after a lost
 * connection, when a notification may have been missed).
 */
export class TokenWatch {
  readonly #db: Db;
  readonly #watched = new Map<string, Set<AbortController>>();
  #listening: Promise<unknown> | undefined;

  constructor(db: Db) {
    this.#db = db;
  }

  /** A signal that aborts when `token` expires or is revoked; `release` stops watching for it. */
  async watch(token: WatchedToken): Promise<{ signal: AbortSignal; release: () => void }> {
    const ended = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      if (!token.expires) return;
      const left = token.expires.getTime() - Date.now();
      if (left <= 0) return ended.abort(new Error("expired"));
      timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    };
    arm();
    let set = this.#watched.get(token.id);
    if (!set) this.#watched.set(token.id, (set = new Set()));
    set.add(ended);
    const release = () => {
      clearTimeout(timer);
      set.delete(ended);
      if (set.size === 0 && this.#watched.get(token.id) === set) this.#watched.delete(token.id);
    };
    ended.signal.addEventListener("abort", release, { once: true });
    await this.#listen();
    // Revoked between the request's lookup and the listening: not missed.
    await this.#check([token.id]);
    return { signal: ended.signal, release };
  }

  #listen(): Promise<unknown> {
    // A listen that fails is tried again by the next stream; this one still ends at its expiry.
    this.#listening ??= (this.#db.listen?.(TOKENS_CHANNEL, () => void this.#check([...this.#watched.keys()]).catch(() => {})) ?? Promise.resolve()).catch(
      () => {
        this.#listening = undefined;
      },
    );
    return this.#listening;
  }

  async #check(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const rows = await this.#db.query<{ id: string }>("SELECT id FROM api_tokens WHERE id = ANY($1::uuid[]) AND revoked IS NOT NULL", [ids]);
    for (const { id } of rows) for (const ended of [...(this.#watched.get(id) ?? [])]) ended.abort(new Error("revoked"));
  }
}
