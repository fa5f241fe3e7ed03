import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";

const WEB_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The build the tests drive (turbo builds it before `test`). */
export const DIST_DIR = join(WEB_DIR, "dist");
/** Where each run keeps its screenshots (gitignored). */
const RESULTS_DIR = join(WEB_DIR, "test-results");

/**
 * Debian's Chromium (installed by .ci/run), never a downloaded one. Without the background
 * networking flags it keeps dialling Google's hosts, which this closed network refuses.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A screenshot of the whole page under test-results/<suite>/, its path printed for the reader of the log. */
export async function screenshot(page: Page, suite: string, name: string): Promise<string> {
  const dir = join(RESULTS_DIR, suite);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  console.log(`screenshot: ${path}`);
  return path;
}

/** Uncaught errors of the page, to fail the test with them. */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.stack ?? error.message));
  return errors;
}
