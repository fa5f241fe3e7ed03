/**
 * The configuration a session is bound to, its sections as written, with secrets decrypted
 * (kept in memory only; sealed at rest). Only parseProviderConfig reads settings from it
 * (secretsOfConfig looks through it for credentials).
 */
export interface ResolvedConfig {
  /** Name of the configuration (Form A file name, or `config.provider.name`). */
  name: string;
  /** Service type name (the section key). */
  serviceType: string;
  /** Canonical class: `local`, `existing-vm` or `cloud`. */
  providerClass: ProviderClass;
  provider: Record<string, unknown>;
  service: Record<string, unknown>;
  /** Inline (Form B) configurations may not name the server's files; absent in sessions sealed before it was recorded. */
  origin?: "inline" | "stored";
}

export type ProviderClass = "local" | "existing-vm" | "cloud";
