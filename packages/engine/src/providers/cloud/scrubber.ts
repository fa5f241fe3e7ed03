import { BenchwrightError, isBenchwrightError } from "../../errors.js";

const MASK = "***";

/**
 * Remembers every credential a provider handles and removes them from any text that
 * leaves it (error details, log lines), whatever the cloud echoed back.
 */
export class Scrubber {
  private readonly secrets = new Set<string>();

  add(...values: Array<string | undefined>): this {
    for (const value of values) {
      if (!value || value.trim().length < 4) continue;
      this.secrets.add(value.trim());
      // A key may come back re-wrapped or cut: its lines are secrets on their own too.
      for (const line of value.split(/\r?\n/)) {
        const t = line.trim();
        if (t.length >= 16 && !t.startsWith("-----")) this.secrets.add(t);
      }
    }
    return this;
  }

  scrub(text: string): string {
    let out = text;
    // Longest first, so a whole key is masked before its lines are.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join(MASK);
    }
    return out;
  }

  log(log: (line: string) => void): (line: string) => void {
    return (line) => log(this.scrub(line));
  }

  /** A provider_failed error saying what failed and the service's own code and message. */
  fail(what: string, error: unknown): BenchwrightError {
    if (isBenchwrightError(error)) {
      return new BenchwrightError(error.code, this.scrub(error.detail), error.extras);
    }
    return new BenchwrightError("provider_failed", this.scrub(`${what}: ${describeError(error)}`));
  }
}

/** The code and message of an SDK or HTTP error; never its request, headers or stack. */
export function describeError(error: unknown): string {
  if (error && typeof error === "object") {
    const e = error as { name?: unknown; code?: unknown; message?: unknown };
    const code = typeof e.code === "string" ? e.code : typeof e.name === "string" && e.name !== "Error" ? e.name : "";
    const message = typeof e.message === "string" ? e.message : "";
    if (code && message) return `${code}: ${message}`;
    return code || message || "unknown error";
  }
  return String(error);
}
