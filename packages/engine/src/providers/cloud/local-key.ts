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
  return { id: spec.name, privateKey: await readableEd25519Key() };
}

/**
 * An Ed25519 private key that ssh2 reads back. ssh2 1.17's generator strips the leading zero
 * bytes of the public half, so about one key in 256 (a public key starting with 0x00) is written
 * short, and reading it fails ("Malformed OpenSSH private key": seen in CI as a cloud session
 * that failed before making any machine). Such a key is made again; two in a row are rare
 * (1 in 65,536), and each try takes microseconds.
 */
async function readableEd25519Key(): Promise<string> {
  const { utils } = await loadSsh2();
  for (;;) {
    const pair = utils.generateKeyPairSync("ed25519");
    if (!(utils.parseKey(pair.private) instanceof Error) && !(utils.parseKey(pair.public) instanceof Error)) return pair.private;
  }
}
