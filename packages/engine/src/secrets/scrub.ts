import { readFileSync } from "node:fs";
import type { EngineLog } from "../engine-log.js";
import { BenchwrightError, isBenchwrightError, type ProblemExtras } from "../errors.js";
import type { ResolvedConfig } from "../model/resolved-config.js";

/** What a credential becomes in any text that leaves the engine. */
export const MASK = "***";

/** Shorter values are not masked: hiding every "ab" would garble text and protect nothing. */
export const MIN_SECRET_LENGTH = 4;
/** Lines of a key this long are secrets on their own: a key may come back re-wrapped or cut. */
const MIN_KEY_LINE_LENGTH = 16;
/** A base64 run cut out of a longer encoding shorter than this would match ordinary text by chance. */
const MIN_BASE64_RUN = 8;

/** JSON string escaping, as JSON.stringify writes it inside the quotes. */
function jsonEscaped(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/** JSON with every non-ASCII character as `\uXXXX` (Python's json.dumps default), in both hex cases. */
function asciiJsonEscaped(s: string): string[] {
  const asciiOnly = (upper: boolean) =>
    jsonEscaped(s).replace(/[^\x00-\x7f]/g, (c) => {
      const hex = c.charCodeAt(0).toString(16).padStart(4, "0");
      return `\\u${upper ? hex.toUpperCase() : hex}`;
    });
  return [asciiOnly(false), asciiOnly(true)];
}

/**
 * What a Python `repr` (and most other languages' debug printing) makes of a string inside
 * its quotes: backslashes doubled, control characters escaped, and the quote it chose
 * escaped. Which quote it chose depends on the string, so each is a form.
 */
function reprEscaped(s: string): string[] {
  const base = s.replace(/[\\\n\r\t\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, (c) => {
    const named: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
    return named[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
  });
  const single = base.replace(/'/g, "\\'");
  return [base, single, base.replace(/"/g, '\\"'), single.replace(/"/g, '\\"')];
}

/** Every escaping of a string that keeps its text readable, one level deep. */
function escapings(s: string): string[] {
  return [jsonEscaped(s), ...asciiJsonEscaped(s), ...reprEscaped(s)];
}

/** Percent-encoding of the UTF-8 bytes, with `safe` left as is, and `+` for a space in the form variants. */
function percentEncoded(s: string, safe: RegExp, spaceAsPlus: boolean): string[] {
  let out = "";
  for (const byte of Buffer.from(s, "utf8")) {
    const c = String.fromCharCode(byte);
    if (spaceAsPlus && c === " ") out += "+";
    else if (byte < 0x80 && safe.test(c)) out += c;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return [out, out.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())];
}

/**
 * The ways a URL or a form carries a string: encodeURIComponent, application/x-www-form-urlencoded
 * (URLSearchParams, Python's quote_plus), Python's quote (which leaves `/`), RFC 3986; upper-
 * and lowercase hex.
 */
function urlEncodings(s: string): string[] {
  return [
    ...percentEncoded(s, /[A-Za-z0-9\-_.!~*'()]/, false),
    ...percentEncoded(s, /[A-Za-z0-9*\-._]/, true),
    ...percentEncoded(s, /[A-Za-z0-9\-._~]/, true),
    ...percentEncoded(s, /[A-Za-z0-9\-._~/]/, false),
    ...percentEncoded(s, /[A-Za-z0-9\-._~]/, false),
  ];
}

/**
 * Base64 of the string (standard and URL-safe, with and without padding), and the runs that
 * show in any longer encoding holding it, at each of the three byte offsets it can start at
 * (`user:password` in a Basic header): the characters made of the secret's bits only.
 */
function base64Encodings(s: string): string[] {
  const bytes = Buffer.from(s, "utf8");
  const forms: string[] = [];
  for (const alphabet of ["base64", "base64url"] as const) {
    const whole = bytes.toString(alphabet);
    forms.push(whole, whole.replace(/=+$/, ""));
    for (let shift = 0; shift < 3; shift++) {
      const encoded = Buffer.concat([Buffer.alloc(shift), bytes])
        .toString(alphabet)
        .replace(/=+$/, "");
      const first = Math.ceil((shift * 8) / 6);
      const end = Math.floor(((shift + bytes.length) * 8) / 6);
      const run = encoded.slice(first, end);
      if (run.length >= MIN_BASE64_RUN) forms.push(run);
    }
  }
  return forms;
}

/**
 * Every form in which a secret may come back from a service or a library: as sent; JSON-,
 * repr- and ASCII-JSON-escaped, and those escaped once more (a repr logged as JSON);
 * URL-encoded; base64. Longest first, so that a whole form is masked before a part of it.
 */
export function secretForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  for (const once of escapings(secret)) {
    forms.add(once);
    for (const twice of escapings(once)) forms.add(twice);
  }
  for (const form of [...urlEncodings(secret), ...base64Encodings(secret)]) forms.add(form);
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/**
 * Remembers credentials and removes every form of them (see secretForms) from any text that
 * leaves: error details, log lines, stored records.
 */
export class Scrubber {
  private readonly secrets = new Set<string>();
  #forms: string[] = [];

  add(...values: Array<string | undefined>): this {
    const before = this.secrets.size;
    for (const value of values) {
      const whole = value?.trim();
      if (!whole || whole.length < MIN_SECRET_LENGTH) continue;
      this.secrets.add(whole);
      for (const line of whole.split(/\r?\n/)) {
        const t = line.trim();
        if (t.length >= MIN_KEY_LINE_LENGTH && !t.startsWith("-----")) this.secrets.add(t);
      }
    }
    if (this.secrets.size !== before) {
      const all = new Set([...this.secrets].flatMap(secretForms));
      this.#forms = [...all].sort((a, b) => b.length - a.length);
    }
    return this;
  }

  /** Every form of every credential it knows (see secretForms), longest first. */
  get forms(): readonly string[] {
    return this.#forms;
  }

  /** A scrubber that knows this one's credentials and `values` too; this one stays as it was. */
  with(...values: Array<string | undefined>): Scrubber {
    return new Scrubber().add(...this.secrets, ...values);
  }

  scrub(text: string): string {
    let out = text;
    for (const form of this.#forms) {
      if (out.includes(form)) out = out.split(form).join(MASK);
    }
    return out;
  }

  /** A log function that masks the line before it writes (its fields are ids, never secrets). */
  log(log: EngineLog): EngineLog {
    return (line, fields) => log(this.scrub(line), fields);
  }

  /**
   * The error with its detail and every text of its extras (output tail, field messages)
   * masked. The cause is left behind: it holds the unmasked text.
   */
  error(error: BenchwrightError): BenchwrightError {
    return new BenchwrightError(error.code, this.scrub(error.detail), this.scrubValue(error.extras) as ProblemExtras);
  }

  /** A provider_failed error saying what failed and the service's own code and message, masked. */
  fail(what: string, error: unknown): BenchwrightError {
    if (isBenchwrightError(error)) return this.error(error);
    return new BenchwrightError("provider_failed", this.scrub(`${what}: ${describeError(error)}`));
  }

  private scrubValue(value: unknown): unknown {
    if (typeof value === "string") return this.scrub(value);
    if (Array.isArray(value)) return value.map((v) => this.scrubValue(v));
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.scrubValue(v)]));
    }
    return value;
  }
}

/** The code and message of an SDK or HTTP error; never its request, headers or stack. */
function describeError(error: unknown): string {
  if (error && typeof error === "object") {
    const e = error as { name?: unknown; code?: unknown; message?: unknown };
    const code = typeof e.code === "string" ? e.code : typeof e.name === "string" && e.name !== "Error" ? e.name : "";
    const message = typeof e.message === "string" ? e.message : "";
    if (code && message) return `${code}: ${message}`;
    return code || message || "unknown error";
  }
  return String(error);
}

/** Keys whose values are credentials, in any section of a configuration, at any depth. */
/** Keys whose values are credentials wherever they appear (the server's log redacts them by these names too). */
export const CREDENTIAL_KEYS = [
  "access_id",
  "access_key",
  "access_key_id",
  "secret",
  "secret_key",
  "secret_access_key",
  "password",
  "passwd",
  "pass",
  "passphrase",
  "token",
  "auth_token",
  "session_token",
  "api_key",
  "apikey",
  "private_key",
  "ssh_private_key",
  "credential",
  "credentials",
] as const;
const CREDENTIAL_KEY = new RegExp(`^(${CREDENTIAL_KEYS.join("|")})$|_(password|secret|token|private_key)$`, "i");

/** Whether a configuration key names a credential, whose value is never repeated anywhere. */
export function isCredentialKey(key: string): boolean {
  return CREDENTIAL_KEY.test(key);
}
const PRIVATE_KEY_TEXT = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/;

/**
 * Calls `found` with every credential given in a resolved provider configuration and where it
 * is (`["vms", "hosts", 1, "password"]`): values of credential-named keys (`access_id`,
 * `secret_key`, passwords, tokens, `ssh_private_key`, in the provider section, the service
 * section and its `hosts`), any private key text whatever its key, and the password of a URL
 * with user info; and with the path of every `key_path`, whose file holds one.
 */
function visitCredentials(config: ResolvedConfig, found: (text: string, at: Array<string | number>) => void, keyPath: (path: string) => void): void {
  const visit = (value: unknown, key: string, at: Array<string | number>) => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        visit(item, key, [...at, i]);
      });
      return;
    }
    if (value && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) visit(v, k, [...at, k]);
      return;
    }
    if (typeof value !== "string" && typeof value !== "number") return;
    const text = String(value);
    if (CREDENTIAL_KEY.test(key) || PRIVATE_KEY_TEXT.test(text)) found(text, at);
    if (key === "key_path" && text) keyPath(text);
    const password = urlPassword(text);
    if (password) found(password, at);
  };
  visit(config.provider, "", ["provider"]);
  visit(config.service, "", [config.serviceType]);
}

/**
 * Every credential of a resolved provider configuration (see visitCredentials), with the
 * text of the key files `key_path` names.
 */
export function secretsOfConfig(config: ResolvedConfig): string[] {
  const found = new Set<string>();
  visitCredentials(
    config,
    (text) => found.add(text),
    (path) => {
      try {
        found.add(readFileSync(path, "utf8"));
      } catch {
        // A key file that cannot be read cannot leak either.
      }
    },
  );
  return [...found].filter((s) => s.trim().length >= MIN_SECRET_LENGTH);
}

/** Where a configuration gives credentials (see visitCredentials): what a view of it masks. */
export function credentialPaths(config: ResolvedConfig): Array<Array<string | number>> {
  const at: Array<Array<string | number>> = [];
  visitCredentials(
    config,
    (_text, where) => at.push(where),
    () => {},
  );
  return at;
}

/**
 * Where a configuration gives a credential too short for the scrubber to mask (blank ones
 * are left to the fields' own checks): shown as is wherever a step or a service printed it.
 */
export function credentialsTooShort(config: ResolvedConfig): Array<Array<string | number>> {
  const short: Array<Array<string | number>> = [];
  visitCredentials(
    config,
    (text, at) => {
      const length = text.trim().length;
      if (length > 0 && length < MIN_SECRET_LENGTH) short.push(at);
    },
    () => {},
  );
  return short;
}

function urlPassword(text: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]*@/i.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.password ? decodeURIComponent(url.password) : undefined;
  } catch {
    return undefined;
  }
}

/** A scrubber that knows every credential of the configuration. */
export function scrubberOf(config: { secrets: readonly string[] }): Scrubber {
  return new Scrubber().add(...config.secrets);
}
