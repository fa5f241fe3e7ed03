import { generateKeyPair } from "node:crypto";
import { promisify } from "node:util";

const generateRsa = promisify(generateKeyPair);

/**
 * The session's key for a cloud that has no key pairs and takes the public key on the machine
 * at launch (GCE's metadata, Azure's osProfile): nothing to make when one is given, else an RSA
 * key made here, whose private half the lifecycle seals in the ledger. Made on libuv's thread
 * pool: a 3072-bit key takes from a tenth of a second to seconds of CPU, which the synchronous
 * call took from the event loop (every request of the server waited; tests timed out under load).
 */
export async function localKey(spec: { name: string; publicKey?: string }): Promise<{ id: string; privateKey?: string }> {
  if (spec.publicKey) return { id: spec.name };
  const { privateKey } = await generateRsa("rsa", {
    modulusLength: 3072,
    privateKeyEncoding: { type: "pkcs1", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  return { id: spec.name, privateKey };
}
