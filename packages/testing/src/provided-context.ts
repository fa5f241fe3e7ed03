// What the PGlite image's global setup provides to the test files (vitest's inject).
declare module "vitest" {
  export interface ProvidedContext {
    /** The file `pgliteImageSetup`'s global setup wrote a migrated PGlite data dir to. */
    pgliteImage?: string;
  }
}

export {};
