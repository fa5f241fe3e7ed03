import { describe, expect, it } from "vitest";
import { removable } from "./remove-guard.js";

describe("removable", () => {
  it("accepts paths below a .benchwright dir", () => {
    expect(removable("~/.benchwright/e1")).toBe(true);
    expect(removable("~/.benchwright/e1/run-2/")).toBe(true);
    expect(removable("/var/tmp/.benchwright/e1")).toBe(true);
  });
  it("refuses the .benchwright dir itself, other paths and dot-dot tricks", () => {
    for (const dir of ["~/.benchwright", "~/.benchwright/", "~", "/", "", "/home/u", "~/.benchwright/../x", "~/.benchwright/./", "~/x/.benchwrightx/y"]) {
      expect(removable(dir), dir).toBe(false);
    }
  });
  it("accepts paths strictly below a given root only", () => {
    expect(removable("/srv/bw/e1", "/srv/bw")).toBe(true);
    expect(removable("/srv/bw", "/srv/bw")).toBe(false);
    expect(removable("/srv/bwx/e1", "/srv/bw")).toBe(false);
    expect(removable("/etc", "/")).toBe(false);
  });
});
