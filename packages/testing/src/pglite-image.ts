import { readFileSync } from "node:fs";
import { inject } from "vitest";
import "./provided-context.js";

let image: Blob | undefined;

/**
 * The run's migrated PGlite image (written by `pgliteImageSetup`'s global setup), for `pgliteImage`
 * options; undefined (a fresh initdb) where no global setup made one.
 */
export function testPgliteImage(): Blob | undefined {
  const file = inject("pgliteImage");
  if (!file) return undefined;
  image ??= new Blob([readFileSync(file)]);
  return image;
}
