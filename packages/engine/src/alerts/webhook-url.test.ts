import { describe, expect, it } from "vitest";
import { isBenchwrightError } from "../errors.js";
import { checkWebhookUrl } from "./webhook-url.js";

const STRICT = { allowPrivate: false };
const ALLOWED = { allowPrivate: true };

async function refusal(url: string, policy = STRICT): Promise<string> {
  try {
    await checkWebhookUrl(url, policy);
  } catch (e) {
    if (isBenchwrightError(e) && e.code === "webhook_url_refused" && e.status === 400) return e.detail;
    throw e;
  }
  throw new Error(`${url} was not refused`);
}

describe("a webhook's URL", () => {
  it("is taken when http(s) on a public address, normalized", async () => {
    expect(await checkWebhookUrl("https://93.184.215.14/hooks/a?b=c", STRICT)).toBe("https://93.184.215.14/hooks/a?b=c");
    expect(await checkWebhookUrl("HTTP://93.184.215.14:8080", STRICT)).toBe("http://93.184.215.14:8080/");
  });

  it.each(["ftp://93.184.215.14/", "file:///etc/passwd", "javascript:alert(1)", "not a url", "/relative"])(
    "is refused when not an absolute http(s) URL: %s",
    async (url) => {
      expect(await refusal(url)).toMatch(/http or https|absolute URL/);
    },
  );

  it("is refused with credentials in it, even when private addresses are allowed", async () => {
    expect(await refusal("https://user:pass@93.184.215.14/", ALLOWED)).toMatch(/credentials/);
    expect(await refusal("https://user@93.184.215.14/", ALLOWED)).toMatch(/credentials/);
  });

  it.each([
    ["http://127.0.0.1:8080/", "is a loopback"],
    ["http://[::1]/", "is a loopback"],
    ["http://10.1.2.3/", "is a private"],
    ["http://192.168.1.1/", "is a private"],
    ["http://169.254.169.254/latest/meta-data/", "is a metadata"],
    ["http://169.254.10.1/", "is a link-local"],
    ["http://[fe80::1]/", "is a link-local"],
    ["http://0.0.0.0/", "is a unspecified"],
    ["http://localhost:9/", "resolves to a loopback"],
  ])("is refused on %s without the setting", async (url, said) => {
    const detail = await refusal(url);
    expect(detail).toContain(said);
    expect(detail).toContain("BENCHWRIGHT_ALLOW_PRIVATE_WEBHOOKS=true");
  });

  it("names the host it was given, never what the name resolved to", async () => {
    const detail = await refusal("http://localhost:9/");
    expect(detail).toMatch(/^localhost resolves to/);
    expect(detail).not.toMatch(/127\.0\.0\.1|::1/);
  });

  it("is taken on those addresses with the setting", async () => {
    for (const url of ["http://127.0.0.1:8080/", "http://localhost:9/x", "http://[::1]/", "http://10.1.2.3/"]) {
      expect(await checkWebhookUrl(url, ALLOWED)).toBe(new URL(url).href);
    }
  });

  it("lets a name that does not resolve through: its deliveries are checked when they connect", async () => {
    expect(await checkWebhookUrl("https://no-such-host.invalid/", STRICT)).toBe("https://no-such-host.invalid/");
  });

  it("is refused when too long", async () => {
    expect(await refusal(`https://93.184.215.14/${"a".repeat(2100)}`)).toMatch(/longer/);
  });
});
