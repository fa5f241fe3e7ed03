import type { Whoami } from "@benchwright/sdk";
import { describe, expect, it } from "vitest";
import { mayChange, mayCreate, signedInText } from "./caller.js";

const viewer: Whoami = { principal: "vic", role: "viewer", bootstrap: false };
const operator: Whoami = { principal: "otto", role: "operator", bootstrap: false };
const admin: Whoami = { principal: "ada", role: "admin", bootstrap: false };

describe("what the page offers each role", () => {
  it("offers a viewer nothing that changes anything; an operator creates, and changes only its own sessions; an admin everything", () => {
    expect([viewer, operator, admin].map(mayCreate)).toEqual([false, true, true]);
    const ottos = { owner: "otto" };
    const adas = { owner: "ada" };
    expect([viewer, operator, admin].map((w) => [mayChange(w, ottos), mayChange(w, adas)])).toEqual([
      [false, false],
      [true, false],
      [true, true],
    ]);
  });

  it("offers everything when the server cannot say who calls (no GET /whoami): the server refuses what it must", () => {
    expect(mayCreate(undefined)).toBe(true);
    expect(mayChange(undefined, { owner: "otto" })).toBe(true);
  });

  it("says who is signed in, with the role", () => {
    expect(signedInText(viewer)).toBe("vic · viewer");
    expect(signedInText({ principal: "bootstrap", role: "admin", bootstrap: true })).toBe("admin · the server's own token");
  });
});
