/**
 * The ciphers the engine offers a host, best first. ssh2 is installed without its native
 * binding (npm runs no install script of it), so its AES-GCM makes a new OpenSSL decipher for
 * every packet, while AES-CTR keeps one for the connection and pays only an HMAC per packet:
 * on a step's output (32 KiB packets) CTR with an encrypt-then-MAC HMAC (ssh2's first MAC)
 * costs the server about a quarter less CPU per GiB (bench/output-stages.mjs, "transport"
 * rows). Every OpenSSH since 5.2 offers CTR with the EtM MACs; GCM and ChaCha20-Poly1305 stay
 * offered after it for hosts that allow only those.
 */
export const SSH_CIPHERS = [
  "aes128-ctr",
  "aes192-ctr",
  "aes256-ctr",
  "aes128-gcm@openssh.com",
  "aes256-gcm@openssh.com",
  "chacha20-poly1305@openssh.com",
] as const;
