import type { components } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { changedValues, inputAttributes, readValue, workloadAbout } from "./params-form.js";

type ParamDeclaration = components["schemas"]["ParamDeclaration"];
const seconds: ParamDeclaration = { name: "seconds", type: "number", default: 5, min: 0, max: 100, unit: "s" };
const threads: ParamDeclaration = { name: "threads", type: "integer", default: 4, min: 1, max: 1024 };
const verbose: ParamDeclaration = { name: "verbose", type: "boolean", default: false };
const mode: ParamDeclaration = { name: "mode", type: "string", default: "seqrd", pattern: "^[a-z]+$" };

describe("the parameters' form", () => {
  it("asks for each type with its bounds and default, for the browser to check", () => {
    expect(inputAttributes(seconds)).toEqual({ type: "number", required: true, min: 0, max: 100, step: "any", value: "5" });
    expect(inputAttributes(threads)).toMatchObject({ type: "number", min: 1, max: 1024, step: 1, value: "4" });
    expect(inputAttributes(verbose)).toEqual({ type: "checkbox", checked: false });
    expect(inputAttributes(mode)).toMatchObject({ type: "text", pattern: "^[a-z]+$", value: "seqrd" });
  });

  it("reads numbers as numbers and booleans as booleans, and leaves text that is no number to the API", () => {
    expect(readValue(seconds, "1")).toBe(1);
    expect(readValue(threads, "8")).toBe(8);
    expect(readValue(seconds, "")).toBeUndefined();
    expect(readValue(seconds, "abc")).toBe("abc");
    expect(readValue(verbose, true)).toBe(true);
    expect(readValue(mode, "randrw")).toBe("randrw");
  });

  it("sends only the values that differ from the defaults", () => {
    const values = new Map<string, string | number | boolean | undefined>([
      ["seconds", 1],
      ["threads", 4],
      ["verbose", false],
      ["mode", "randrw"],
    ]);
    expect(changedValues([seconds, threads, verbose, mode], values)).toEqual({ seconds: 1, mode: "randrw" });
  });
});

describe("what the form says of a workload", () => {
  it("says its description is of what it does with the default params, in plain words", () => {
    expect(workloadAbout({ workload_description: "Sleeps 5 seconds.", params: [seconds] })).toBe(
      "Sleeps 5 seconds. (this is what it does with the default params below)",
    );
    expect(workloadAbout({ workload_description: "Sleeps 5 seconds.", params: [] })).toBe("Sleeps 5 seconds.");
  });
});
