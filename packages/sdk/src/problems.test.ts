import { loadSpec } from "@benchwright/contract";
import { describe, expect, it } from "vitest";
import { BenchwrightProblemError, createClient, PROBLEMS } from "./index.js";

describe("the SDK's problem catalogue", () => {
  it("is the contract's, code for code", () => {
    const spec = loadSpec() as { components: { schemas: { ProblemCode: { "x-problem-codes": unknown } } } };
    expect(PROBLEMS).toEqual(spec.components.schemas.ProblemCode["x-problem-codes"]);
  });

  it("names the code of a body that is not a Problem from it, where its status has one code only", async () => {
    const answering = (status: number) =>
      createClient({
        baseUrl: "http://bw.invalid",
        fetch: async () => new Response("<html>proxy</html>", { status, statusText: "Proxy" }),
      });
    const codeOf = async (status: number) => {
      const err = await answering(status)
        .listSessions()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BenchwrightProblemError);
      return (err as BenchwrightProblemError).code;
    };
    expect(await codeOf(404)).toBe("not_found");
    expect(await codeOf(503)).toBe("unavailable");
    expect(await codeOf(416)).toBe("range_not_satisfiable");
    // 400 and 502 have several codes in the catalogue: nothing more can be said than `internal`.
    expect(await codeOf(400)).toBe("internal");
    expect(await codeOf(502)).toBe("internal");
  });

  it("gives a synthesized problem its message, as the server's problems have", async () => {
    const client = createClient({ baseUrl: "http://bw.invalid", fetch: async () => new Response("upstream down", { status: 503 }) });
    const err = (await client.listSessions().catch((e: unknown) => e)) as BenchwrightProblemError;
    expect(err.problem).toMatchObject({ detail: "upstream down", message: "upstream down" });
  });
});
