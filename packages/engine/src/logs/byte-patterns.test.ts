import { describe, expect, it } from "vitest";
import { BytePatterns } from "./byte-patterns.js";

/** Every [end, length] of a match of the longest pattern ending there, fed a byte at a time. */
function matches(patterns: string[], text: string): Array<[number, number]> {
  const search = new BytePatterns(patterns.map((p) => Buffer.from(p)));
  const found: Array<[number, number]> = [];
  let state = 0;
  for (const [i, byte] of Buffer.from(text).entries()) {
    state = search.step(state, byte);
    if (search.matched(state)) found.push([i, search.matched(state)]);
  }
  return found;
}

describe("BytePatterns", () => {
  it("finds every pattern, overlapping ones and ones inside others, at the byte that ends them", () => {
    expect(matches(["he", "she", "his", "hers"], "ushers")).toEqual([
      [3, 3],
      [5, 4],
    ]);
    expect(matches(["abcd", "bc"], "xabcdx")).toEqual([
      [3, 2],
      [4, 4],
    ]);
    expect(matches(["aa"], "aaaa")).toEqual([
      [1, 2],
      [2, 2],
      [3, 2],
    ]);
  });

  it("agrees with a naive search on random text", () => {
    const patterns = ["abab", "bab", "aabba", "ba", "bbbbbb"];
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed);
    const text = Array.from({ length: 2000 }, () => "ab"[random() % 2]).join("");
    const naive: Array<[number, number]> = [];
    for (let end = 0; end < text.length; end++) {
      const longest = Math.max(0, ...patterns.filter((p) => text.slice(0, end + 1).endsWith(p)).map((p) => p.length));
      if (longest) naive.push([end, longest]);
    }
    expect(matches(patterns, text)).toEqual(naive);
  });

  it("tells how many last bytes may still begin a pattern", () => {
    const search = new BytePatterns([Buffer.from("secret")]);
    let state = 0;
    for (const byte of Buffer.from("a secre")) state = search.step(state, byte);
    expect(search.depth(state)).toBe(5);
    expect(search.empty).toBe(false);
    expect(new BytePatterns([]).empty).toBe(true);
  });
});
