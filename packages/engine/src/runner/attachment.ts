import type { Transport } from "../transport/transport.js";

/**
 * The transport in use: `replace` drops it after a failure so that the next use asks
 * for a fresh one (for a pool handle, the same connection reopened).
 */
export class Attachment {
  #current: Transport | undefined;
  constructor(
    readonly getTransport: () => Transport,
    readonly owned: boolean,
  ) {}

  get transport(): Transport {
    return (this.#current ??= this.getTransport());
  }

  replace(): void {
    if (this.owned) this.#current?.release();
    this.#current = undefined;
  }

  release(): void {
    if (this.owned) this.#current?.release();
    this.#current = undefined;
  }
}
