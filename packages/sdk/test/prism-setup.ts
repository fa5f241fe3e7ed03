// Starts `prism mock` on the bundled contract for the tests, and stops it afterwards.
import { startPrism } from "@benchwright/contract/prism";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The mock server's root; the SDK appends /api/v1 as it does for the real server. */
    prismUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const prism = await startPrism({ mode: "mock" });
  project.provide("prismUrl", prism.url);
  return () => prism.stop();
}
