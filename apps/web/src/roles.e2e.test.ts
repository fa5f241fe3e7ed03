// What the dashboard offers each role, on the real server: a viewer is told who it is and is
// offered no action the server would refuse it; an admin, as a control, is offered them all.
import type { BenchwrightClient, Session } from "@benchwright/sdk";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, pageErrors } from "../test/browser.js";
import { assertBuilt } from "../test/built.js";
import { type RealServer, startRealServer } from "../test/real-server.js";

const TOKEN = "dashboard-roles-token";
const WAIT = { timeout: 60_000 };

describe("the dashboard, by the caller's role", () => {
  let server: RealServer;
  let bw: BenchwrightClient;
  let browser: Browser;
  let shared: Session;
  let viewerToken: string;

  beforeAll(async () => {
    assertBuilt();
    server = await startRealServer(TOKEN);
    ({ bw } = server);
    // Shared, so that the viewer reads it and its page.
    shared = await bw.createSession({ provider: "local", service: "default", shared: true });
    viewerToken = (await bw.createToken({ principal: "vic", role: "viewer" })).token!;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A tab of its own (its own sessionStorage, so its own token), signed in with `token`, on the sessions list. */
  async function signIn(token: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = pageErrors(page);
    await page.goto(`${server.url}/ui/#/sessions`);
    await page.waitForSelector('[data-testid="token-form"]', WAIT);
    await page.fill('[data-testid="token-form"] input', token);
    await page.click('[data-testid="token-form"] button');
    await page.waitForSelector('main[data-view="sessions"]', WAIT);
    return { page, errors };
  }

  const count = (page: Page, testid: string) => page.locator(`[data-testid="${testid}"]`).count();

  it("tells a viewer who is signed in, and offers it no Open session, Create, Share or Delete", async () => {
    const { page, errors } = await signIn(viewerToken);
    await page.waitForFunction(() => document.querySelector('[data-testid="signed-in"]')?.textContent?.includes("vic · viewer"), undefined, WAIT);
    expect(await page.getAttribute('[data-testid="signed-in"]', "data-role")).toBe("viewer");
    expect(await page.locator(`[data-testid="session-row"][data-id="${shared.id}"]`).count()).toBe(1);
    expect(await count(page, "new-session")).toBe(0);
    expect(await count(page, "open-session")).toBe(0);
    expect(await count(page, "read-only")).toBe(1);

    await page.goto(`${server.url}/ui/#/sessions/${shared.id}`);
    await page.waitForSelector('main[data-view="sessions-one"] [data-testid="session-shared"]', WAIT);
    for (const button of ["toggle-shared", "delete-session", "new-execution"]) expect(await count(page, button), button).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it("offers an admin each of them", async () => {
    const { page, errors } = await signIn(TOKEN);
    await page.waitForFunction(() => document.querySelector('[data-testid="signed-in"]')?.textContent?.includes("admin"), undefined, WAIT);
    expect(await page.getAttribute('[data-testid="signed-in"]', "data-role")).toBe("admin");
    expect(await count(page, "new-session")).toBe(1);
    await page.goto(`${server.url}/ui/#/sessions/${shared.id}`);
    await page.waitForSelector('main[data-view="sessions-one"] [data-testid="delete-session"]', WAIT);
    for (const button of ["toggle-shared", "delete-session", "new-execution"]) expect(await count(page, button), button).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});
