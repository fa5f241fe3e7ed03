// Issue 34's point 1: a page of another site sent the dashboard's tab to `/ui/?api=<its server>`,
// and the dashboard sent it the API token. Now another API origin is used only when the user
// confirms it, a token goes only to the origin it was entered for, and /ui/ carries a CSP.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { startCountingListener, type CountingListener } from "@benchwright/testing";
import type { Browser, Dialog, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../test/browser.js";
import { assertBuilt } from "../test/built.js";
import { type RealServer, startRealServer } from "../test/real-server.js";

const WAIT = { timeout: 60_000 };
/** What an attacker's server answers, preflights included: anything may be sent to it, the token too. */
const PERMISSIVE =
  "HTTP/1.1 204 No Content\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Allow-Headers: authorization, content-type, accept, x-request-id, last-event-id, x-fields\r\n" +
  "Access-Control-Allow-Methods: GET, POST, PATCH, DELETE\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

describe("the dashboard opened by another site with ?api=", () => {
  let server: RealServer;
  let listener: CountingListener;
  let elsewhere: Server;
  let elsewhereUrl: string;
  let browser: Browser;
  let page: Page;
  let token: string;
  const asked: string[] = [];
  let answer: (dialog: Dialog) => Promise<void> = (dialog) => dialog.dismiss();

  beforeAll(async () => {
    assertBuilt();
    listener = await startCountingListener({ answer: PERMISSIVE });
    const listenerOrigin = `http://127.0.0.1:${listener.port}`;
    // Even where the operator let the page call that origin (its CSP then allows it), the token stays home.
    server = await startRealServer("api-origin-e2e-token", { uiApiOrigins: [listenerOrigin] });
    token = (await server.bw.createToken({ principal: "dana", role: "viewer" })).token!;
    // A page of another site that sends the visitor's tab to the dashboard, naming its own server.
    const target = `${server.url}/ui/?api=${encodeURIComponent(listenerOrigin)}#/sessions`;
    elsewhere = createServer((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" }).end(`<!doctype html><script>location.href = ${JSON.stringify(target)};</script>`);
    });
    await new Promise<void>((r) => elsewhere.listen(0, "127.0.0.1", r));
    elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/`;
    browser = await launchChromium();
    page = await browser.newPage();
    page.on("dialog", (dialog) => {
      asked.push(dialog.message());
      void answer(dialog);
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => elsewhere?.close(r));
    await listener?.stop();
    await server?.close();
  });

  it("serves /ui/ with a CSP that keeps the page's calls on its origin and the ones configured", async () => {
    const answered = await page.goto(`${server.url}/ui/#/sessions`);
    const headers = answered!.headers();
    expect(headers["content-security-policy"]).toContain(`connect-src 'self' http://127.0.0.1:${listener.port}`);
    expect(headers["content-security-policy"]).toContain("script-src 'self'");
    expect(headers).toMatchObject({ "x-content-type-options": "nosniff", "x-frame-options": "DENY", "referrer-policy": "no-referrer" });
    // The user gives the page its token, for this server.
    await page.fill('[data-testid="token-form"] input', token);
    await page.click('[data-testid="token-form"] button');
    await page.waitForSelector('main[data-view="sessions"]', WAIT);
  });

  it("asks the user, and on a no stays on its own server, sending nothing to the other", async () => {
    listener.reset();
    await page.goto(elsewhereUrl);
    await page.waitForURL(/\?api=/, WAIT);
    // The defect sent 5 requests in 4 s: a second's wait is enough to see the first.
    await page.waitForTimeout(1_500);
    expect(listener.received.filter((r) => r.includes(token))).toEqual([]);
    expect(listener.connections).toBe(0);
    await page.waitForSelector('main[data-view="sessions"]', WAIT);
    expect(asked).toEqual([expect.stringContaining(`http://127.0.0.1:${listener.port}`)]);
    expect(await page.locator("#api-base").innerText()).toBe(server.url);
  });

  it("on a yes calls the other server, without the token entered for this one", async () => {
    answer = (dialog) => dialog.accept();
    listener.reset();
    await page.goto(elsewhereUrl);
    await page.waitForURL(/\?api=/, WAIT);
    await expect.poll(() => listener.connections, WAIT).toBeGreaterThan(0);
    await page.waitForTimeout(1_500);
    expect(listener.received.filter((r) => r.includes(token) || /^authorization:/im.test(r))).toEqual([]);
    expect(asked).toHaveLength(2);
  });
});
