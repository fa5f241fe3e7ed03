import { describe, expect, it } from "vitest";
import { sourceText } from "./source-words.js";

describe("sourceText", () => {
  it("names each source as a reader says it, and passes an unknown one through", () => {
    expect(["builtin", "file", "api"].map(sourceText)).toEqual(["built in", "file", "API"]);
    expect(sourceText("elsewhere")).toBe("elsewhere");
    expect(sourceText(undefined)).toBe("");
  });
});
