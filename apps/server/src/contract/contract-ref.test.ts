import { describe, expect, it } from "vitest";
import { dereferenced } from "./contract-ref.js";

describe("dereferenced", () => {
  const contract = {
    components: {
      parameters: { Fields: { in: "header", name: "X-Fields" }, Alias: { $ref: "#/components/parameters/Fields" } },
      requestBodies: { "a/b": { required: true }, Loop: { $ref: "#/components/requestBodies/Loop" } },
    },
  };

  it("gives a node without a reference as it is, and a component for its reference, through chains", () => {
    const plain = { in: "query", name: "limit" };
    expect(dereferenced(contract, plain)).toBe(plain);
    expect(dereferenced(contract, { $ref: "#/components/parameters/Fields" })).toEqual({ in: "header", name: "X-Fields" });
    expect(dereferenced(contract, { $ref: "#/components/parameters/Alias" })).toEqual({ in: "header", name: "X-Fields" });
    // JSON Pointer escapes: ~1 is a slash in a name.
    expect(dereferenced(contract, { $ref: "#/components/requestBodies/a~1b" })).toEqual({ required: true });
  });

  it("gives nothing for a reference to nothing, outside the contract, or in a cycle", () => {
    expect(dereferenced(contract, { $ref: "#/components/parameters/Missing" })).toBeUndefined();
    expect(dereferenced(contract, { $ref: "other.yaml#/components/parameters/Fields" })).toBeUndefined();
    expect(dereferenced(contract, { $ref: "#/components/requestBodies/Loop" })).toBeUndefined();
    expect(dereferenced(contract, undefined)).toBeUndefined();
  });
});
