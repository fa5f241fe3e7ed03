import { describe, expect, it } from "vitest";
import { applyFieldsMask, parseFieldsMask } from "./fields-mask.js";

const session = {
  id: "s1",
  state: "active",
  provider: { id: "local", type: "default", class: "local" },
  executions: [
    { id: "e1", state: "created", test: { tool_id: "idle" } },
    { id: "e2", state: "completed", test: { tool_id: "fio" } },
  ],
};

const masked = (mask: string, value: unknown = session) => applyFieldsMask(value, parseFieldsMask(mask));

describe("X-Fields masks", () => {
  it("keeps the named top-level fields only", () => {
    expect(masked("id,state")).toEqual({ id: "s1", state: "active" });
  });

  it("keeps nested fields named in braces", () => {
    expect(masked("id,provider{id}")).toEqual({ id: "s1", provider: { id: "local" } });
  });

  it("applies a nested mask to each element of a list field", () => {
    expect(masked("executions{id,test{tool_id}}")).toEqual({
      executions: [
        { id: "e1", test: { tool_id: "idle" } },
        { id: "e2", test: { tool_id: "fio" } },
      ],
    });
  });

  it("applies a mask to each element of a list response", () => {
    expect(masked("id", [session, { ...session, id: "s2" }])).toEqual([{ id: "s1" }, { id: "s2" }]);
  });

  it("refuses a mask nested too deep with a 400, not a stack overflow", () => {
    // Never closed, so it fits in Node's 16 KiB of headers, and deep enough to overflow the stack.
    const deep = "a{".repeat(7_900);
    expect(() => parseFieldsMask(deep)).toThrow(
      expect.objectContaining({ code: "bad_fields_mask", detail: expect.stringMatching(/nests deeper than 16 levels/) }),
    );
    const sixteen = "a{".repeat(16) + "a" + "}".repeat(16);
    expect(masked(sixteen, { a: { b: 1 } })).toEqual({ a: {} });
  });

  it("keeps everything with *, and everything in a nested object with {*}", () => {
    expect(masked("*")).toEqual(session);
    expect(masked("provider{*}")).toEqual({ provider: session.provider });
    expect(masked("*,provider{id}")).toEqual({ ...session, provider: { id: "local" } });
  });

  it("accepts one pair of outer braces and spaces, as flask-restplus does", () => {
    expect(masked("{id, state}")).toEqual({ id: "s1", state: "active" });
  });

  it("leaves fields absent from the value absent", () => {
    expect(masked("id,nothing")).toEqual({ id: "s1" });
  });

  it.each(["", "id,", "id{", "id}", "provider{id", "a b", "id,,state", "{", "provider{}", "9x", "id;drop"])("rejects the malformed mask %j", (mask) => {
    expect(() => parseFieldsMask(mask)).toThrow(/X-Fields mask/);
  });
});
