import { describe, expect, it } from "vitest";
import { FormSearch } from "./form-search.js";

/** Every [start, end] of the longest form lying whole at each start. */
function found(forms: string[], text: string): Array<[number, number]> {
  const all: Array<[number, number]> = [];
  new FormSearch(forms.map((f) => Buffer.from(f))).find(Buffer.from(text), (start, end) => all.push([start, end]));
  return all;
}

describe("FormSearch", () => {
  it("finds every form, overlapping ones and ones inside others, with the longest at each start", () => {
    expect(found(["sher", "heres", "here"], "usheres")).toEqual([
      [1, 5],
      [2, 7],
    ]);
    expect(found(["abcdef", "bcde"], "xabcdefx")).toEqual([
      [1, 7],
      [2, 6],
    ]);
    expect(found(["aaaa"], "aaaaaa")).toEqual([
      [0, 4],
      [1, 5],
      [2, 6],
    ]);
    expect(found(["abcd"], "abc")).toEqual([]);
  });

  // 4-byte forms are looked for at every position, longer ones every (shortest - 3) positions, at most 16.
  for (const forms of [
    ["abab", "babab", "aabba", "bbbbbb", "abbbbbbbbba"],
    ["abababa", "bababbabababa", "aabbaabba", "bbbbbbbbbbbb"],
    ["abababababab", "bababbabababa", "aabbaabbaabbaab", "bbbbbbbbbbbb", "abbbbbbbbbbbbbbbbbba"],
    ["abababababababababab", "bbabbabbbabbbbabababbbba", "aabbaabbaabbaabbaabbaabbaabb"],
  ]) {
    it(`agrees with a naive search on random text (forms of ${forms[0].length} bytes or more)`, () => {
      let seed = 7;
      const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed);
      const text = Array.from({ length: 20_000 }, () => "ab"[(random() >> 16) % 2]).join("");
      const naive: Array<[number, number]> = [];
      for (let start = 0; start < text.length; start++) {
        const longest = Math.max(0, ...forms.filter((f) => text.startsWith(f, start)).map((f) => f.length));
        if (longest) naive.push([start, start + longest]);
      }
      expect(naive.length).toBeGreaterThan(10);
      expect(found(forms, text)).toEqual(naive);
      // Every end of the text, cut anywhere, is held back as far as it may begin a form.
      const search = new FormSearch(forms.map((f) => Buffer.from(f)));
      for (let end = 1; end < 400; end++) {
        const cut = text.slice(0, end);
        let expected = 0;
        for (let left = Math.min(end, 30); left > 0 && !expected; left--)
          if (forms.some((f) => f.length > left && f.startsWith(cut.slice(end - left)))) expected = left;
        expect(search.pending(Buffer.from(cut)), `cut at ${end}`).toBe(expected);
      }
    });
  }

  it("tells how many last bytes may still begin a form, however few", () => {
    const search = new FormSearch([Buffer.from("secret"), Buffer.from("crypt")]);
    expect(search.pending(Buffer.from("a secre"))).toBe(5);
    expect(search.pending(Buffer.from("a secr"))).toBe(4);
    expect(search.pending(Buffer.from("a sec"))).toBe(3);
    expect(search.pending(Buffer.from("a s"))).toBe(1);
    expect(search.pending(Buffer.from("a secret"))).toBe(0);
    expect(search.pending(Buffer.from("a b"))).toBe(0);
    expect(search.empty).toBe(false);
    expect(new FormSearch([]).empty).toBe(true);
    expect(() => new FormSearch([Buffer.from("abc")])).toThrow(RangeError);
  });
});
