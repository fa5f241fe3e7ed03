import { existsSync } from "node:fs";
import { join } from "node:path";
import { DIST_DIR } from "./browser.js";

/** The tests drive the built dashboard: say how to make it rather than fail on a blank page. */
export function assertBuilt(): void {
  if (!existsSync(join(DIST_DIR, "index.html"))) {
    throw new Error(`${DIST_DIR} has no build: run npm run build -w @benchwright/web (or npx turbo run build) first`);
  }
}
