// Checks the package as it will be published: packed, installed into a separate project
// that has nothing else of the monorepo, type-checked and loaded from ESM and CJS.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const PKG_DIR = fileURLToPath(new URL("..", import.meta.url));
const TSC = fileURLToPath(new URL("../../../node_modules/.bin/tsc", import.meta.url));
const TIMEOUT_MS = 120_000;

// `npm test -w ...` exports npm_config_* (workspace among them) that would make the
// nested npm commands act on the monorepo instead of the temp project.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("npm_")));

// Asynchronous: a worker blocked in a synchronous child for a minute (tsc under CI's load) misses
// vitest's own RPC deadline, which fails the run with "Timeout calling onTaskUpdate".
async function run(command: string, args: string[], cwd: string): Promise<string> {
  try {
    return (await promisify(execFile)(command, args, { cwd, env, encoding: "utf8", maxBuffer: 512 * 1024 * 1024 })).stdout;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`, { cause: err });
  }
}

const CONSUMER_TS = `
import {
  BenchwrightProblemError,
  createClient,
  prepareAndRun,
  waitForState,
  type BenchwrightClient,
  type Execution,
  type Metric,
  type Problem,
  type Session,
  type SessionCreate,
  type StepResult,
} from "@benchwright/sdk";

const client: BenchwrightClient = createClient({ baseUrl: "http://127.0.0.1:5000", token: "t" });
const body: SessionCreate = { provider: "local", service: "default" };

export async function flow(): Promise<StepResult> {
  const session: Session = await client.createSession(body, { fields: "id" });
  const execution: Execution = await client.createExecution(session.id, { tool: "idle", workload: "idle5" });
  const { run } = await prepareAndRun(client, execution.id);
  const done = await waitForState(client, execution.id, ["completed", "run_failed"], { intervalMs: 10, timeoutMs: 100 });
  const metrics: Metric[] = done.metrics;
  const log: string = await client.getLog(execution.id, { step: "run", attempt: 1 });
  const raw = await client.raw.GET("/sessions/{session_id}", { params: { path: { session_id: session.id } } });
  if (raw.error) {
    const problem: Problem = raw.error;
    console.log(problem.code);
  }
  // @ts-expect-error the contract requires tool
  await client.createExecution(session.id, { workload: "idle5" });
  // @ts-expect-error no such step
  await client.getLog(execution.id, { step: "cleanup" });
  console.log(metrics.length, log.length);
  await client.deleteSession(session.id);
  return run;
}

export function describeError(err: unknown): string {
  return err instanceof BenchwrightProblemError ? \`\${err.status} \${err.code}\` : "other";
}
`;

const CONSUMER_CTS = `
import sdk = require("@benchwright/sdk");

const client: sdk.BenchwrightClient = sdk.createClient({ baseUrl: "http://127.0.0.1:5000" });
export async function states(): Promise<sdk.ExecutionState[]> {
  const executions: sdk.Execution[] = await client.listExecutions();
  // @ts-expect-error an Execution has no name
  executions[0]?.name;
  return executions.map((e) => e.state);
}
`;

// Run by node: the fetch below answers without a server, so the client's whole request
// path (openapi-fetch included) runs in each module format.
const smoke = (load: string, resolved: string) => `
${load}
const seen = [];
const fetch = async (request) => {
  seen.push(request);
  if (request.url.endsWith("/missing")) {
    return new Response(JSON.stringify({ type: "t", title: "Not found", status: 404, code: "not_found" }), {
      status: 404,
      headers: { "content-type": "application/problem+json" },
    });
  }
  return new Response("[]", { headers: { "content-type": "application/json" } });
};
const client = createClient({ baseUrl: "http://bw.test", token: "t", fetch });
const sessions = await client.listSessions({ fields: "id" });
let code;
try {
  await client.getBenchmark("missing");
} catch (err) {
  if (!(err instanceof BenchwrightProblemError)) throw err;
  code = err.code;
}
console.log(JSON.stringify({
  resolved: ${resolved},
  sessions,
  url: seen[0].url,
  auth: seen[0].headers.get("authorization"),
  fields: seen[0].headers.get("x-fields"),
  code,
}));
`;

describe("packed package", () => {
  let tmp: string;
  let consumer: string;
  let tarball: string;
  let packedFiles: string[];

  beforeAll(async () => {
    if (!existsSync(join(PKG_DIR, "dist/esm/index.js")) || !existsSync(join(PKG_DIR, "dist/cjs/index.js"))) {
      await run(process.execPath, ["scripts/build.mjs"], PKG_DIR);
    }
    tmp = mkdtempSync(join(tmpdir(), "bw-sdk-pack-"));
    // The build is checked above; prepack would rebuild it under a running test.
    const packed = JSON.parse(await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], PKG_DIR)) as {
      filename: string;
      files: { path: string }[];
    }[];
    tarball = join(tmp, packed[0]!.filename);
    packedFiles = packed[0]!.files.map((f) => f.path);

    consumer = join(tmp, "consumer");
    mkdirSync(consumer);
    writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    const install = ["install", "--no-audit", "--no-fund", "--no-package-lock", tarball];
    try {
      await run("npm", [...install, "--offline"], consumer);
    } catch {
      await run("npm", install, consumer);
    }
  }, TIMEOUT_MS);

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it("ships dist, README and LICENSE only, the contract's types once, with no reference to the unpublished contract", () => {
    expect(packedFiles).toContain("README.md");
    expect(packedFiles).toContain("dist/cjs/package.json");
    expect(packedFiles).toContain("LICENSE");
    // npm takes a LICENSE from the package's own folder only: the copy must be the repository's.
    expect(readFileSync(join(PKG_DIR, "LICENSE"), "utf8")).toBe(readFileSync(join(PKG_DIR, "../../LICENSE"), "utf8"));
    // The contract's types ship once, in the CommonJS half; the ES half refers to them.
    const installed = join(consumer, "node_modules/@benchwright/sdk");
    expect(readFileSync(join(installed, "dist/cjs/generated/schema.d.ts"), "utf8")).toContain("export interface paths");
    expect(readFileSync(join(installed, "dist/esm/generated/schema.d.ts"), "utf8").length).toBeLessThan(200);
    expect(packedFiles.filter((f) => !f.startsWith("dist/") && !["README.md", "package.json", "LICENSE"].includes(f))).toEqual([]);
    expect(packedFiles.filter((f) => f.includes(".test."))).toEqual([]);
    for (const file of packedFiles.filter((f) => f.startsWith("dist/"))) {
      expect(readFileSync(join(installed, file), "utf8"), file).not.toContain("@benchwright/contract");
    }
  });

  it("says where it comes from, and is published publicly", () => {
    const manifest = JSON.parse(readFileSync(join(consumer, "node_modules/@benchwright/sdk/package.json"), "utf8"));
    expect(manifest).toMatchObject({
      license: "Apache-2.0",
      repository: { type: "git", url: expect.stringMatching(/^git\+https:\/\//), directory: "packages/sdk" },
      homepage: expect.stringMatching(/^https:\/\//),
      bugs: { url: expect.stringMatching(/^https:\/\/.*\/issues$/) },
      publishConfig: { access: "public" },
    });
  });

  it(
    "type-checks an ESM and a CJS consumer under NodeNext strict",
    async () => {
      writeFileSync(join(consumer, "index.ts"), CONSUMER_TS);
      writeFileSync(join(consumer, "consumer.cts"), CONSUMER_CTS);
      writeFileSync(
        join(consumer, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: "NodeNext",
            moduleResolution: "NodeNext",
            lib: ["ES2022", "DOM"],
            types: [],
            strict: true,
            noEmit: true,
            // The point is to check the published declarations themselves.
            skipLibCheck: false,
          },
          files: ["index.ts", "consumer.cts"],
        }),
      );
      // One check, traced: it fails on a type error, and each format must get its own declarations.
      const trace = await run(TSC, ["-p", "tsconfig.json", "--traceResolution"], consumer);
      expect(trace).toMatch(/'@benchwright\/sdk' was successfully resolved to '[^']*\/dist\/esm\/index\.d\.ts'/);
      expect(trace).toMatch(/'@benchwright\/sdk' was successfully resolved to '[^']*\/dist\/cjs\/index\.d\.ts'/);
    },
    TIMEOUT_MS,
  );

  const expected = (format: string) => ({
    resolved: expect.stringMatching(new RegExp(`dist/${format}/index\\.js$`)),
    sessions: [],
    url: "http://bw.test/api/v1/sessions/",
    auth: "Bearer t",
    fields: "id",
    code: "not_found",
  });

  it(
    "loads with import from an .mjs file",
    async () => {
      const file = join(consumer, "esm.mjs");
      writeFileSync(file, smoke(`import { createClient, BenchwrightProblemError } from "@benchwright/sdk";`, `import.meta.resolve("@benchwright/sdk")`));
      expect(JSON.parse(await run(process.execPath, [file], consumer))).toEqual(expected("esm"));
    },
    TIMEOUT_MS,
  );

  it(
    "loads with require from a .cjs file",
    async () => {
      const file = join(consumer, "cjs.cjs");
      writeFileSync(
        file,
        `(async () => {\n${smoke(`const { createClient, BenchwrightProblemError } = require("@benchwright/sdk");`, `require.resolve("@benchwright/sdk")`)}\n})().catch((err) => { console.error(err); process.exit(1); });`,
      );
      expect(JSON.parse(await run(process.execPath, [file], consumer))).toEqual(expected("cjs"));
    },
    TIMEOUT_MS,
  );

  it("ships the benchmark definition's JSON Schema, which the unpublished contract holds, as an export", async () => {
    const file = join(consumer, "schema.mjs");
    writeFileSync(
      file,
      'import { createRequire } from "node:module";\n' +
        'const schema = createRequire(import.meta.url)("@benchwright/sdk/benchmark-definition.schema.json");\n' +
        "console.log(JSON.stringify({ draft: schema.$schema, required: schema.required }));\n",
    );
    expect(JSON.parse(await run(process.execPath, [file], consumer))).toEqual({
      draft: "https://json-schema.org/draft/2020-12/schema",
      required: ["id", "tool_name", "parser", "workloads"],
    });
  });
});
