import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { GuardedFetch } from "../../net/guarded-fetch.js";
import { guardedAuth, serviceAccountAuth } from "./gce-auth.js";

describe("GCE's auth through the guarded fetch", () => {
  it("asks for the service account's token through the fetch it is given, and the API calls go through it too", async () => {
    const calls: Array<{ url: string; authorization: string | null }> = [];
    const fetch: GuardedFetch = async (url, init) => {
      calls.push({ url: String(url), authorization: new Headers(init?.headers).get("authorization") });
      if (String(url).includes("token")) return Response.json({ access_token: "ya29.test-token", expires_in: 3600, token_type: "Bearer" });
      return Response.json({ ok: true });
    };
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const account = serviceAccountAuth("sa@p.iam.gserviceaccount.com", privateKey.export({ type: "pkcs8", format: "pem" }).toString(), fetch);
    const res = await guardedAuth(account, fetch).fetch("https://compute.googleapis.com/compute/v1/projects/p/zones/z/instances", {
      method: "GET",
    });
    expect(await res.json()).toEqual({ ok: true });
    expect(calls.map((c) => c.url)).toEqual([
      expect.stringMatching(/^https:\/\/oauth2\.googleapis\.com\/token/),
      "https://compute.googleapis.com/compute/v1/projects/p/zones/z/instances",
    ]);
    expect(calls[1].authorization).toBe("Bearer ya29.test-token");
  });
});
