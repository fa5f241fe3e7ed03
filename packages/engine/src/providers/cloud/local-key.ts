import { loadSsh2 } from "../../transport/ssh2-module.js";

/**
 * The session's key for a cloud that has no key pairs and takes the public key on the machine
 * at launch (GCE's metadata, Azure's osProfile): nothing to make when one is given, else an
 * Ed25519 key made here (OpenSSH's format, which ssh2 reads), whose private half the lifecycle
 * seals in the ledger. Ed25519, not RSA: both clouds take it, and it is made in microseconds
 * where a 3072-bit RSA key took from a tenth of a second to seconds of CPU per session.
 */
export async function localKey(spec: { name: string; publicKey?: string }): Promise<{ id: string; privateKey?: string }> {
  if (spec.publicKey) return { id: spec.name };
  const { utils } = await loadSsh2();
  return { id: spec.name, privateKey: utils.generateKeyPairSync("ed25519").private };
}
