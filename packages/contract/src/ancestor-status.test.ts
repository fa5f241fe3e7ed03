import { describe, expect, it } from "vitest";
import { loadSpec } from "./index.js";

type Content = Record<string, { schema?: Record<string, unknown> }>;
type Op = { requestBody?: { $ref?: string; required?: boolean; content?: Content }; responses: Record<string, unknown> };
const spec = loadSpec() as {
  paths: Record<string, Record<string, Op>>;
  components: { requestBodies: Record<string, { required?: boolean; content: Content }>; schemas: Record<string, Record<string, unknown>> };
};

/** A request body, its $ref followed. */
function bodyOf(op: Op) {
  const ref = op.requestBody?.$ref;
  return ref ? spec.components.requestBodies[ref.split("/").pop()!] : op.requestBody;
}

// Clients of the Benchmarking Suite check statuses exactly and send an empty JSON body on
// every POST and DELETE: the contract says what they get.
describe("the contract, as the Benchmarking Suite's clients read it", () => {
  it("answers both creations with 200, as flask-restplus' marshal_with did", () => {
    for (const path of ["/sessions/", "/sessions/{session_id}/executions/"]) {
      const responses = spec.paths[path].post.responses;
      expect(
        Object.keys(responses).filter((s) => s.startsWith("2")),
        path,
      ).toEqual(["200"]);
    }
  });

  it("lets prepare, run and the session deletion take an empty JSON body, and only that", () => {
    for (const [path, method] of [
      ["/executions/{exec_id}/prepare", "post"],
      ["/executions/{exec_id}/run", "post"],
      ["/sessions/{session_id}", "delete"],
    ]) {
      const body = bodyOf(spec.paths[path][method]);
      expect(body, `${method} ${path}`).toBeDefined();
      expect(body!.required ?? false, `${method} ${path}`).toBe(false);
      const schema = body!.content?.["application/json"]?.schema as { $ref: string };
      expect(spec.components.schemas[schema.$ref.split("/").pop()!]).toMatchObject({
        type: "object",
        additionalProperties: false,
        maxProperties: 0,
      });
    }
  });
});
