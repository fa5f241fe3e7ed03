// The dependency rules of the repository, checked by `npm run deps` (dependency-cruiser).
// Two tables below say what may import what; the rules are generated from them.
const { readFileSync } = require("node:fs");

// ─── Packages ──────────────────────────────────────────────────────────────────────────────
// `may`: what a package's code may import besides itself. `testsMay`: what its tests
// (*.test.ts, test-support/, test/, vitest configs) may import on top: the devDependency arrows
// of ARCHITECTURE.md's graph. No package imports an app at run time, except the CLI's optional `benchwright server`.
const PACKAGES = {
  contract: { dir: "packages/contract", may: [], testsMay: ["catalog"] },
  catalog: { dir: "packages/catalog", may: ["contract"], testsMay: [] },
  testing: { dir: "packages/testing", may: [], testsMay: [] },
  engine: { dir: "packages/engine", may: ["contract", "catalog"], testsMay: ["testing"] },
  sdk: { dir: "packages/sdk", may: ["contract"], testsMay: [] },
  // `benchwright server` loads the server package, an optional peer, only when that command runs.
  cli: { dir: "packages/cli", may: ["sdk", "catalog", "contract", "server"], testsMay: ["testing", "engine"] },
  server: { dir: "apps/server", may: ["engine", "catalog", "contract"], testsMay: ["sdk", "testing"] },
  web: { dir: "apps/web", may: ["sdk", "contract"], testsMay: ["engine", "server", "testing"] },
  // bench measures everything, but only through what the packages export (rule below).
  bench: { dir: "bench", may: ["contract", "catalog", "testing", "engine", "sdk", "server"], testsMay: [] },
};

// ─── The engine's folders (packages/engine/src) ───────────────────────────────────────────
// An import may go to the same tier or a lower one, never up. A name ending in "/" is a folder.
const ENGINE_TIERS = [
  /* 0 */ ["model/", "errors.ts", "time.ts", "lease-loop.ts", "data-dir.ts", "engine-log.ts", "storage-full.ts", "net/", "secrets/"],
  /* 1 */ ["config/", "store/", "transport/", "results/", "lists/"],
  /* 2 */ ["logs/", "events/", "runner/", "queue/", "views/", "alerts/", "series/", "tokens/", "provider-configs/", "ingest/", "gate/"],
  /* 3 */ ["providers/", "catalog-source.ts", "read-cache.ts"],
  /* 4 */ ["machines/"],
  /* 5 */ ["steps/", "cost/"],
  /* 6 */ ["sessions/", "executions/", "benchmarks/", "sweep/", "plans/", "plan-runs/", "schedules/", "quotas/"],
  /* 7 */ ["engine.ts", "engine-options.ts", "engine-resources.ts", "engine-parts.ts", "engine-lifecycle.ts", "index.ts", "test-access.ts"],
];

// ─── The server's folders (apps/server/src), the same way ─────────────────────────────────
// Small helpers at the bottom, the composition root (app.ts) above all it composes, and the
// processes and entry points that start it above that.
const SERVER_TIERS = [
  /* 0 */ ["principals/", "setting-list.ts"],
  /* 1 */ ["operations/"],
  /* 2 */ ["api/"],
  /* 3 */ ["contract/", "http/"],
  /* 4 */ ["app.ts"],
  /* 5 */ ["process/", "tokens-command.ts"],
  /* 6 */ ["cli.ts", "main.ts", "index.ts"],
];

// Tests: *.test.ts, test-support/ folders, a package's test/ folder and vitest config.
const TESTS = String.raw`(\.test\.ts$|/test-support/|^(packages|apps)/[^/]+/(test/|vitest\.config\.ts$))`;
const testsIn = (dir) => String.raw`^${esc(dir)}/(.*\.test\.ts$|.*test-support/|test/|vitest\.config\.ts$)`;
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const any = (patterns) => `(${patterns.join("|")})`;

// A package, reached by its name (unbuilt, or a subpath) or by a file in its folder (built: the
// name resolves through node_modules' symlink to its dist/).
const pkg = (name) => `^(${esc(PACKAGES[name].dir)}/|@benchwright/${name}($|/))`;
const others = (name, allowed) =>
  Object.keys(PACKAGES)
    .filter((p) => p !== name && !allowed.includes(p))
    .map(pkg);

const packageRules = Object.entries(PACKAGES).flatMap(([name, { dir, may, testsMay }]) => {
  const code = others(name, may);
  const tests = others(name, [...may, ...testsMay]);
  return [
    code.length && {
      name: `layers-${name}`,
      comment: `${name} may import only ${may.join(", ") || "no other Benchwright package"} (.dependency-cruiser.cjs, PACKAGES)`,
      severity: "error",
      from: { path: `^${esc(dir)}/`, pathNot: TESTS },
      to: { path: any(code) },
    },
    tests.length && {
      name: `layers-${name}-tests`,
      comment: `${name}'s tests may import only ${[...may, ...testsMay].join(", ") || "no other Benchwright package"} (PACKAGES)`,
      severity: "error",
      from: { path: testsIn(dir) },
      to: { path: any(tests) },
    },
  ].filter(Boolean);
});

// The files a package's `exports` name: the only ones another package may reach.
const entryPoints = Object.values(PACKAGES).flatMap(({ dir }) => {
  const targets = [];
  const walk = (e) => (typeof e === "string" ? targets.push(e) : e && Object.values(e).forEach(walk));
  try {
    walk(JSON.parse(readFileSync(`${dir}/package.json`, "utf8")).exports);
  } catch {}
  return targets.map((t) => `^${esc(`${dir}/${t.replace(/^\.\//, "")}`)}$`);
});

// Tiered folders: a file imports from its own tier or a lower one, and every file has a tier.
const TIERED = [
  { name: "engine", src: "packages/engine/src/", tiers: ENGINE_TIERS, table: "ENGINE_TIERS" },
  { name: "server", src: "apps/server/src/", tiers: SERVER_TIERS, table: "SERVER_TIERS" },
];
const tierPattern = (src, entries) => any(entries.map((e) => `^${esc(src + e)}${e.endsWith("/") ? "" : "$"}`));
const tierRules = TIERED.flatMap(({ name, src, tiers, table }) => [
  ...tiers.slice(0, -1).map((entries, tier) => ({
    name: `${name}-tier-${tier}`,
    comment: `${name} tier ${tier} (${entries.join(" ")}) imports from a higher tier (${table})`,
    severity: "error",
    from: { path: tierPattern(src, entries), pathNot: TESTS },
    to: { path: tierPattern(src, tiers.slice(tier + 1).flat()) },
  })),
  {
    name: `${name}-file-without-tier`,
    comment: `every ${name} file belongs to a tier: add its folder to ${table}`,
    severity: "error",
    from: { path: `^${esc(src)}`, pathNot: [TESTS, tierPattern(src, tiers.flat())] },
    to: {},
  },
]);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "a cycle of imports, type-only ones included",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...packageRules,
    {
      name: "only-entry-points",
      comment: "another package is reached through its name and what its package.json exports, never a file path",
      severity: "error",
      from: { path: "^(packages|apps)/([^/]+)/" },
      to: { path: "^(packages|apps)/([^/]+)/", pathNot: ["^$1/$2/", ...entryPoints] },
    },
    {
      name: "bench-only-entry-points",
      comment: "bench uses the packages as a user would: through their exported entry points",
      severity: "error",
      from: { path: "^bench/" },
      to: { path: "^(packages|apps)/", pathNot: entryPoints },
    },
    ...tierRules,
  ],
  options: {
    // Type-only imports are dependencies too: a cycle through them is still a cycle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    doNotFollow: { path: ["node_modules", "/dist/"] },
    exclude: { path: ["/generated/", "node_modules"] },
    // Node's resolution of a workspace package: its `exports`, ESM first.
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      mainFields: ["module", "main"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
