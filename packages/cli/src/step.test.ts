import { describe, expect, it } from "vitest";
import { repetitionWatch } from "./step.js";

describe("the repetition a run's log says is under way", () => {
  it("reads the engine's headers, whole lines only, the last of a chunk", () => {
    const seen: string[] = [];
    const watch = repetitionWatch(true, (t) => seen.push(t));
    watch("=== run, repetition 1 of at most 3 ===\nslept\n=== run, repeti");
    watch("tion 2 of at most 3 ===\n");
    watch("=== run, role client, repetition 3 of at most 3 on m2 ===\n=== run, repetition 3 of at most 3 ===\n");
    expect(seen).toEqual(["repetition 1/3", "repetition 2/3", "repetition 3/3"]);
  });

  it("says the bound of a run that repeats until it is steady as a bound", () => {
    const seen: string[] = [];
    repetitionWatch(false, (t) => seen.push(t))("=== run, repetition 2 of at most 10 ===\n");
    expect(seen).toEqual(["repetition 2 (at most 10)"]);
  });
});
