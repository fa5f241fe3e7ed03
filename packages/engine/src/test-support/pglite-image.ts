import { readFileSync } from "node:fs";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** The file `pglite-image-setup.ts` wrote a migrated PGlite data dir to. */
    pgliteImage?: string;
  }
}

let image: Blob | undefined;

/** The run's migrated PGlite image, for `pgliteImage` options; undefined (a fresh initdb) where no global setup made one. */
export function testPgliteImage(): Blob | undefined {
  const file = inject("pgliteImage");
  if (!file) return undefined;
  image ??= new Blob([readFileSync(file)]);
  return image;
}
