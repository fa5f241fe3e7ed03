// The TypeScript the READMEs show is what users paste: it must type-check against the package
// as built, under the strictest settings a user's project may have.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const PKG_DIR = fileURLToPath(new URL("..", import.meta.url));
const REPO = join(PKG_DIR, "../..");
/** The other published packages' READMEs (npm shows them on the package's page). */
const PACKAGE_READMES = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).workspaces as string[])
  .map((dir) => join(REPO, dir))
  .filter((dir) => dir !== join(PKG_DIR, ".") && !JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private)
  .map((dir) => join(dir, "README.md"))
  .filter((file) => existsSync(file));
/** The SDK's README, the repository's, every page of docs/ and the published packages' READMEs. */
const DOCUMENTS = [
  join(PKG_DIR, "README.md"),
  join(REPO, "README.md"),
  ...readdirSync(join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(REPO, "docs", name)),
  ...PACKAGE_READMES,
];

/** What the snippets use without declaring it: the names the prose around them introduces. */
const AMBIENT = `
declare const bw: import("@benchwright/sdk").BenchwrightClient;
declare const execId: string;
declare const executionId: string;
declare const id: string;
declare const output: string;
`;

const STRICTEST: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2022.d.ts"],
  types: ["node"],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  useUnknownInCatchVariables: true,
  skipLibCheck: true,
  noEmit: true,
};

/** The ```ts blocks of a markdown text, each with the line it starts on. */
function tsBlocks(markdown: string): Array<{ line: number; code: string }> {
  const blocks: Array<{ line: number; code: string }> = [];
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    blocks.push({ line: start + 1, code: lines.slice(start, end).join("\n") });
    i = end;
  }
  return blocks;
}

/** Type errors of each snippet, as `file:line: message`, compiled as modules of a project in the package. */
function typeErrors(snippets: Array<{ name: string; code: string }>): string[] {
  // Inside the package, so that `@benchwright/sdk` resolves as a user's install would: to dist.
  const dir = mkdtempSync(join(PKG_DIR, ".readme-snippets-"));
  dirs.push(dir);
  mkdirSync(dir, { recursive: true });
  const ambient = join(dir, "ambient.d.ts");
  writeFileSync(ambient, AMBIENT);
  const files = snippets.map((s, i) => {
    const file = join(dir, `snippet-${i}.mts`);
    // `export {}` keeps each snippet a module of its own, with top-level await.
    writeFileSync(file, `${s.code}\nexport {};\n`);
    return { file, name: s.name };
  });
  const program = ts.createProgram([ambient, ...files.map((f) => f.file)], STRICTEST);
  return files.flatMap(({ file, name }) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : 0;
      return `${name} (+${line}): ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    }),
  );
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("the TypeScript snippets of the READMEs", () => {
  it("finds the snippets: the SDK's README shows several", () => {
    expect(tsBlocks(readFileSync(DOCUMENTS[0]!, "utf8")).length).toBeGreaterThan(3);
    expect(tsBlocks("a\n```ts\nconst x = 1;\n```\nb\n```sh\nls\n```\n")).toEqual([{ line: 3, code: "const x = 1;" }]);
  });

  it("reports a snippet that does not type-check", () => {
    const errors = typeErrors([
      { name: "bad", code: 'import { createClient } from "@benchwright/sdk";\ncreateClient({ baseUrl: "x", token: process.env.T });' },
    ]);
    expect(errors.join("\n")).toMatch(/exactOptionalPropertyTypes|not assignable/);
  });

  it("type-check against the built package, as a Node project with exactOptionalPropertyTypes and noUncheckedIndexedAccess has them", () => {
    const snippets = DOCUMENTS.flatMap((doc) =>
      tsBlocks(readFileSync(doc, "utf8")).map((b) => ({ name: `${doc.slice(REPO.length + 1)}:${b.line}`, code: b.code })),
    );
    // The SDK's README and its page in docs/ both show one at least.
    const shown = new Set(snippets.map((s) => s.name.split(":")[0]));
    expect(shown).toContain("packages/sdk/README.md");
    expect(shown).toContain("docs/sdk.md");
    // Each published package's README that shows TypeScript is checked: the server's and the engine's do.
    expect(shown).toContain("apps/server/README.md");
    expect(shown).toContain("packages/engine/README.md");
    expect(typeErrors(snippets)).toEqual([]);
  }, 60_000);
});
