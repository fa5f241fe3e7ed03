import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isProblemCode, loadSpec, PROBLEMS } from "./index.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

type Schema = { enum?: string[]; "x-problem-codes"?: Record<string, { status: number; title: string }> };
type Example = { value?: Record<string, unknown> };
const spec = loadSpec() as {
  components: {
    schemas: Record<string, Schema>;
    responses: Record<string, { content?: Record<string, { examples?: Record<string, Example> }> }>;
  };
  paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { examples?: Record<string, Example> }> }> }>>;
};

/** Every TypeScript source of the workspace's packages and apps, generated code left out. */
function sources(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === "node_modules" || name === "dist" || name === "generated") continue;
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|mts|cts)$/.test(name) && !name.endsWith(".d.ts")) found.push(path);
    }
  };
  for (const group of ["packages", "apps"]) {
    for (const pkg of readdirSync(join(REPO, group))) {
      const src = join(REPO, group, pkg, "src");
      if (statSync(join(REPO, group, pkg)).isDirectory() && readdirSync(join(REPO, group, pkg)).includes("src")) walk(src);
    }
  }
  return found;
}

/**
 * The problem codes a source names: as a BenchwrightError's code, as a problem's `code` (or a
 * step's `error_code`), or compared with one. Codes are snake_case; Node's own error codes
 * (`ENOENT`, `ERR_...`) are upper case and `typeof x === "string"` is no code.
 */
function problemCodesIn(text: string): string[] {
  const patterns = [
    /BenchwrightError\(\s*"([a-z][a-z0-9_]*)"/g,
    /\b(?:error_)?code:\s*"([a-z][a-z0-9_]*)"/g,
    /(?<!typeof\s+[\w.?]*)\bcode\s*[!=]==\s*"([a-z][a-z0-9_]*)"/g,
    /\.code\)\.toBe\(\s*"([a-z][a-z0-9_]*)"/g,
  ];
  return patterns.flatMap((p) => [...text.matchAll(p)].map((m) => m[1]));
}

describe("the problem catalogue", () => {
  const catalogue = spec.components.schemas.ProblemCode["x-problem-codes"]!;

  it("is the contract's x-problem-codes, and the ProblemCode enum is made from it", () => {
    expect(Object.keys(catalogue).length).toBeGreaterThan(0);
    expect(spec.components.schemas.ProblemCode.enum).toEqual(Object.keys(catalogue));
    expect(PROBLEMS).toEqual(catalogue);
    for (const [code, { status, title }] of Object.entries(PROBLEMS)) {
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThanOrEqual(599);
      expect(title.trim(), code).not.toBe("");
    }
  });

  it("tells its codes from other strings", () => {
    expect(isProblemCode("step_failed")).toBe(true);
    expect(isProblemCode("toString")).toBe(false);
    expect(isProblemCode("no_such_code")).toBe(false);
  });

  it("agrees with every problem example of the contract: code, status, title and message", () => {
    const examples: Array<[string, Record<string, unknown>]> = [];
    const collect = (where: string, content?: Record<string, { examples?: Record<string, Example> }>) => {
      for (const [name, ex] of Object.entries(content?.["application/problem+json"]?.examples ?? {}))
        if (ex.value) examples.push([`${where} ${name}`, ex.value]);
    };
    for (const [name, response] of Object.entries(spec.components.responses)) collect(name, response.content);
    for (const [path, item] of Object.entries(spec.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses ?? {})) collect(`${method} ${path} ${status}`, response.content);
      }
    }
    expect(examples.length).toBeGreaterThan(5);
    for (const [where, value] of examples) {
      const code = value.code as string;
      expect(isProblemCode(code), `${where}: ${code}`).toBe(true);
      expect(value, where).toMatchObject({
        status: PROBLEMS[code as keyof typeof PROBLEMS].status,
        title: PROBLEMS[code as keyof typeof PROBLEMS].title,
      });
      expect(value.type, where).toBe(`https://benchwright.dev/problems/${code.replace(/_/g, "-")}`);
      expect(value.message, where).toBe(value.detail);
    }
  });

  it("lists every problem code the engine, the server and the SDK use", () => {
    // This file's own made-up codes (below) are not uses.
    const files = sources().filter((f) => f !== fileURLToPath(import.meta.url));
    expect(files.some((f) => f.endsWith(join("engine", "src", "errors.ts")))).toBe(true);
    const unknown: string[] = [];
    let seen = 0;
    for (const file of files) {
      for (const code of problemCodesIn(readFileSync(file, "utf8"))) {
        seen++;
        if (!isProblemCode(code)) unknown.push(`${relative(REPO, file)}: ${code}`);
      }
    }
    expect(seen).toBeGreaterThan(50);
    expect(unknown).toEqual([]);
  });

  it("finds codes in each way sources name them", () => {
    const text = [
      'throw new BenchwrightError(\n  "made_up", "x");',
      'expect(res.body).toMatchObject({ code: "other_one" });',
      'if (err.code === "third") return;',
      'expect(e.code).toBe("fourth");',
      '{ error_code: "fifth" }',
      'if (typeof code === "string" && e.code === "ENOENT") {}',
    ].join("\n");
    expect(problemCodesIn(text).sort()).toEqual(["fifth", "fourth", "made_up", "other_one", "third"]);
  });
});
