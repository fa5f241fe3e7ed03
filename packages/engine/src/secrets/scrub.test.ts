import { spawnSync } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BenchwrightError } from "../errors.js";
import type { ResolvedConfig } from "../model/resolved-config.js";
import { MASK, Scrubber, secretForms, secretsOfConfig } from "./scrub.js";

// Backslashes, both quotes, `+`, `/`, `%`, a space, a tab, non-ASCII and a character outside the BMP.
const PASSWORD = `Qx7\\vL"m'K9+/%20 é\t€😀-Zr8wq`;

/**
 * The password as Python (what OpenStack is written in) echoes it, computed by Python itself
 * rather than by the code under test: repr, repr of a repr, json.dumps (ASCII), urllib's quote
 * and quote_plus, base64 (standard, URL-safe) and a Basic authorization of `user:password`.
 */
function pythonEchoes(secret: string): Record<string, string> {
  const script = `
import sys, json, base64, urllib.parse
s = sys.stdin.read()
print(json.dumps({
  "repr": repr(s),
  "repr_of_dict": repr({"password": s}),
  "repr_of_repr": repr(repr(s)),
  "json_ascii": json.dumps(s),
  "json_of_dict": json.dumps({"auth": {"password": s}}, ensure_ascii=False),
  "quote": urllib.parse.quote(s),
  "quote_plus": urllib.parse.quote_plus(s),
  "b64": base64.b64encode(s.encode()).decode(),
  "b64url": base64.urlsafe_b64encode(s.encode()).decode(),
  "basic": "Basic " + base64.b64encode(("bench-user:" + s).encode()).decode(),
  "basic2": "Basic " + base64.b64encode(("ab:" + s).encode()).decode(),
}))
`;
  const r = spawnSync("python3", ["-c", script], { input: secret, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as Record<string, string>;
}

/** The JavaScript side's own encodings of it. */
function javascriptEchoes(secret: string): Record<string, string> {
  return {
    json: JSON.stringify(secret),
    json_of_json: JSON.stringify(JSON.stringify(secret)),
    uri: encodeURIComponent(secret),
    form: new URLSearchParams({ password: secret }).toString(),
    uri_lower: encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    b64: Buffer.from(secret).toString("base64"),
    b64url: Buffer.from(secret).toString("base64url"),
    // A repr that an engine log line then writes as JSON.
    logged_repr: JSON.stringify({ message: pythonEchoes(secret).repr }),
  };
}

/** The secret's alphanumeric runs: a form that still shows one of them was not masked. */
function fragments(secret: string): string[] {
  return secret.match(/[A-Za-z0-9]{3,}/g) ?? [];
}

describe("secretForms and Scrubber", () => {
  const scrubber = new Scrubber().add(PASSWORD);

  it("gives a scrubber that knows one more secret, and leaves the first as it was", () => {
    const step = "0123456789abcdef0123456789abcdef";
    const both = scrubber.with(step);
    expect(both.scrub(`${PASSWORD} and ${step}`)).toBe(`${MASK} and ${MASK}`);
    expect(scrubber.scrub(step)).toBe(step);
  });

  for (const [origin, echoes] of [
    ["python", pythonEchoes(PASSWORD)],
    ["javascript", javascriptEchoes(PASSWORD)],
  ] as const) {
    for (const [name, echo] of Object.entries(echoes)) {
      it(`masks the password echoed by ${origin} as ${name}`, () => {
        const text = `keystone said: request was ${echo}; giving up`;
        const out = scrubber.scrub(text);
        expect(out).toContain(MASK);
        expect(out.startsWith("keystone said: request was ")).toBe(true);
        expect(out.endsWith("; giving up")).toBe(true);
        for (const f of fragments(PASSWORD)) expect(out).not.toContain(f);
        if (!name.startsWith("b64") && !name.startsWith("basic")) return;
        // Base64: nothing of the encoding of the secret's own bytes is left.
        const core = echo.replace(/^Basic /, "").slice(4, -4);
        expect(out).not.toContain(core);
      });
    }
  }

  it("lists the forms longest first, the secret itself among them", () => {
    const forms = secretForms(PASSWORD);
    expect(forms).toContain(PASSWORD);
    expect(forms).toContain(JSON.stringify(PASSWORD).slice(1, -1));
    expect(forms).toContain(encodeURIComponent(PASSWORD));
    expect([...forms].sort((a, b) => b.length - a.length)).toEqual(forms);
    expect(new Set(forms).size).toBe(forms.length);
  });

  it("masks a private key, its lines, and the key as JSON or base64", () => {
    const key = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const s = new Scrubber().add(key);
    const line = key.split("\n")[1];
    for (const echo of [key, JSON.stringify(key), Buffer.from(key).toString("base64"), `partial: ${line}`, encodeURIComponent(key)]) {
      const out = s.scrub(`got ${echo} back`);
      expect(out).not.toContain(line);
      expect(out).not.toContain(encodeURIComponent(line));
      expect(out).toContain(MASK);
    }
  });

  it("leaves other text alone, and ignores values too short to be secrets", () => {
    const s = new Scrubber().add("abc", undefined, "", "   ", PASSWORD);
    const text = "creating server benchwright-1234 in RegionOne (m1.small, debian-12): abc def";
    expect(s.scrub(text)).toBe(text);
  });

  it("learns secrets as they come (a token issued later)", () => {
    const s = new Scrubber();
    expect(s.scrub("token gAAAAB3x-fresh-token")).toBe("token gAAAAB3x-fresh-token");
    s.add("gAAAAB3x-fresh-token");
    expect(s.scrub("token gAAAAB3x-fresh-token")).toBe(`token ${MASK}`);
  });

  it("masks an error's detail and every text of its extras, keeping its code", () => {
    const e = new BenchwrightError(
      "step_failed",
      `run failed: ${pythonEchoes(PASSWORD).repr}`,
      {
        exit_code: 3,
        output_tail: `login with ${encodeURIComponent(PASSWORD)}\n`,
        errors: [{ path: "provider.secret_key", message: PASSWORD }],
        step: "run",
      },
      { cause: new Error(PASSWORD) },
    );
    const masked = scrubber.error(e);
    expect(masked.code).toBe("step_failed");
    expect(masked.status).toBe(502);
    expect(masked.extras.exit_code).toBe(3);
    expect(masked.extras.step).toBe("run");
    expect(masked.cause).toBeUndefined();
    const all = JSON.stringify({ detail: masked.detail, extras: masked.extras, message: masked.message });
    for (const f of fragments(PASSWORD)) expect(all).not.toContain(f);
  });

  it("turns a foreign error into provider_failed, masked", () => {
    const e = Object.assign(new Error(`bad password ${JSON.stringify(PASSWORD)}`), { name: "AuthFailure" });
    const failed = scrubber.fail("ec2 creating the key pair failed", e);
    expect(failed.code).toBe("provider_failed");
    expect(failed.detail).toBe(`ec2 creating the key pair failed: AuthFailure: bad password "${MASK}"`);
  });
});

describe("secretsOfConfig", () => {
  const key = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const otherKey = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

  const config = (provider: Record<string, unknown>, service: Record<string, unknown>): ResolvedConfig => ({
    name: "c",
    serviceType: "s",
    providerClass: "cloud",
    provider,
    service,
  });

  it("finds an EC2 configuration's keys and nothing else", () => {
    const found = secretsOfConfig(
      config(
        { class: "cloud", name: "aws", driver: "ec2", access_id: "AKIAEXAMPLE42", secret_key: "wJalr/K7MDENG+bPxRfi", region: "eu-west-1" },
        { image: "ubuntu-*", size: "t3.micro", vm_user: "ubuntu", key_name: "mine", ssh_private_key: key, platform: "ubuntu_22_04" },
      ),
    );
    expect(found.sort()).toEqual(["AKIAEXAMPLE42", "wJalr/K7MDENG+bPxRfi", key].sort());
  });

  it("finds an OpenStack password, a numeric one, tokens, and the password of a URL", () => {
    const found = secretsOfConfig(
      config(
        {
          driver: "openstack",
          auth_url: "https://admin:hunter2%2Fx@keystone.example/v3",
          access_id: "bench-user",
          secret_key: PASSWORD,
          tenant: "benchmarks",
        },
        {
          image: "debian-12",
          size: "m1.small",
          vm_user: "debian",
          password: 12345678,
          api_token: "tok-abcdef",
          extra: { db_password: "nested-pw" },
        },
      ),
    );
    expect(found.sort()).toEqual(["bench-user", PASSWORD, "hunter2/x", "12345678", "tok-abcdef", "nested-pw"].sort());
  });

  it("finds the keys of each host, inline or in a key file, and key text under any name", () => {
    const dir = mkdtempSync(join(tmpdir(), "bw-keys-"));
    writeFileSync(join(dir, "id"), otherKey);
    const found = secretsOfConfig({
      name: "vms",
      serviceType: "lab",
      providerClass: "existing-vm",
      provider: { class: "existing-vm" },
      service: {
        vm_user: "bench",
        hosts: [
          { host: "127.0.0.1", ssh_private_key: key },
          { host: "127.0.0.2", key_path: join(dir, "id") },
          { host: "127.0.0.3", key_path: join(dir, "missing") },
        ],
        notes: key,
      },
    });
    expect(found.sort()).toEqual([key, otherKey].sort());
  });
});
