import { createHash } from "node:crypto";
import { BenchwrightError } from "../errors.js";
import type { HostKeyStore } from "./transport.js";

/** The fingerprint of a raw (wire format) host key, as `ssh-keygen -l` prints it. */
export function hostKeyFingerprint(key: Buffer): string {
  return "SHA256:" + createHash("sha256").update(key).digest("base64").replace(/=+$/, "");
}

export class InMemoryHostKeyStore implements HostKeyStore {
  readonly #keys = new Map<string, string>();
  async get(machineKey: string): Promise<string | undefined> {
    return this.#keys.get(machineKey);
  }
  async set(machineKey: string, fingerprint: string): Promise<void> {
    this.#keys.set(machineKey, fingerprint);
  }
}

/**
 * Trust on first use: records the first fingerprint seen for the machine, then accepts
 * only that one. Resolves to the error to report, or undefined when the key is trusted.
 */
export async function checkHostKey(store: HostKeyStore, machineKey: string, hostLabel: string, key: Buffer): Promise<BenchwrightError | undefined> {
  const seen = hostKeyFingerprint(key);
  const recorded = await store.get(machineKey);
  if (recorded === undefined) {
    await store.set(machineKey, seen);
    return undefined;
  }
  if (recorded === seen) return undefined;
  return new BenchwrightError("host_key_mismatch", `The host key of ${hostLabel} changed: recorded ${recorded}, offered ${seen}`);
}
