import { generateKeyPairSync } from "node:crypto";

/**
 * The session's key for a cloud that has no key pairs and takes the public key on the machine
 * at launch (GCE's metadata, Azure's osProfile): nothing to make when one is given, else an RSA
 * key made here, whose private half the lifecycle seals in the ledger.
 */
export function localKey(spec: { name: string; publicKey?: string }): { id: string; privateKey?: string } {
  if (spec.publicKey) return { id: spec.name };
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 3072 });
  return { id: spec.name, privateKey: privateKey.export({ type: "pkcs1", format: "pem" }).toString() };
}
