import { describe, expect, it } from "vitest";
import { loadSpec } from "./index.js";

type Op = { operationId?: string; parameters?: Array<{ $ref?: string; name?: string }>; responses: Record<string, unknown> };

const spec = loadSpec() as { paths: Record<string, Record<string, Op>> };
const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => method !== "parameters")
    .map(([method, op]) => ({ path, method, op })),
);

describe("the bundled contract", () => {
  it("holds the seed's thirteen operations under their paths", () => {
    const seed = [
      "get /benchmarks/",
      "get /benchmarks/{benchmark_id}",
      "get /providers/",
      "post /sessions/",
      "get /sessions/",
      "get /sessions/{session_id}",
      "delete /sessions/{session_id}",
      "post /sessions/{session_id}/executions/",
      "get /sessions/{session_id}/executions/",
      "get /executions/",
      "get /executions/{exec_id}",
      "post /executions/{exec_id}/prepare",
      "post /executions/{exec_id}/run",
    ];
    const have = operations.map(({ method, path }) => `${method} ${path}`);
    for (const op of seed) expect(have).toContain(op);
  });

  it("gives every operation a unique operationId", () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("accepts X-Fields on every JSON operation but the deletions (a 204 has no body to cut)", () => {
    for (const { path, method, op } of operations) {
      const hasMask = (op.parameters ?? []).some((p) => p.$ref === "#/components/parameters/XFields");
      // The log is text, the event stream SSE and the metrics export CSV or JSON Lines rows: a fields mask has nothing to cut there.
      const textOnly = path.endsWith("/logs") || path === "/events" || path === "/executions/metrics";
      expect(hasMask, `${method} ${path}`).toBe(method !== "delete" && !textOnly);
    }
  });

  it("describes a problem response for every error status", () => {
    for (const { path, method, op } of operations) {
      for (const status of ["400", "401", "500"]) expect(op.responses[status], `${method} ${path} ${status}`).toBeDefined();
    }
  });
});
