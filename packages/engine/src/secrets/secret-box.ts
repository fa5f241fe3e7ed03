import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** AES-256-GCM sealing of credentials kept in the store. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error("the secret key must be 32 bytes");
  }

  /**
   * The key comes from BENCHWRIGHT_SECRET_KEY (base64, 32 bytes; servers that share one
   * PostgreSQL must share it) or from `<dataDir>/secret.key`, made on first start.
   */
  static fromEnvironment(dataDir: string, envKey = process.env.BENCHWRIGHT_SECRET_KEY): SecretBox {
    if (envKey) return new SecretBox(Buffer.from(envKey, "base64"));
    const file = join(dataDir, "secret.key");
    if (!existsSync(file)) {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      writeFileSync(file, randomBytes(32).toString("base64") + "\n", { mode: 0o600, flag: "wx" });
    }
    return new SecretBox(Buffer.from(readFileSync(file, "utf8").trim(), "base64"));
  }

  /**
   * A secret for `purpose`, the same every time and on every server that shares the key (a
   * step taken over by another server gets the one its parts started with), and unrelated to
   * the key or to any other purpose's: 32 hex digits.
   */
  derive(purpose: string): string {
    return createHmac("sha256", this.key).update(`benchwright derived secret\0${purpose}`).digest("hex").slice(0, 32);
  }

  seal(value: unknown): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(value), "utf8"), cipher.final()]);
    return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(".");
  }

  open<T>(sealed: string): T {
    const [version, iv, tag, body] = sealed.split(".");
    if (version !== "v1" || !iv || !tag || body === undefined) throw new Error("not a sealed value");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    const text = Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
    return JSON.parse(text) as T;
  }
}
