import { describe, expect, it } from "vitest";
import { chooseApiBase } from "./api.js";

/** sessionStorage's part the choice uses. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v) } as Storage;
}

const PAGE = "http://bench.example:5000";
const at = (search: string) => ({ origin: PAGE, search });

describe("chooseApiBase", () => {
  it("is the page's own origin without ?api=, or with one that is not an http(s) URL, asking nothing", () => {
    const asked: string[] = [];
    const ask = (q: string) => (asked.push(q), true);
    for (const search of ["", "?api=", "?api=not a url", "?api=javascript:alert(1)", "?api=file:///etc/passwd"])
      expect(chooseApiBase(at(search), ask, memoryStorage()), search).toBe(PAGE);
    expect(chooseApiBase(at(`?api=${PAGE}/`), ask, memoryStorage())).toBe(`${PAGE}/`);
    expect(asked).toEqual([]);
  });

  it("uses another origin only when the user says yes, and asks once per tab", () => {
    const storage = memoryStorage();
    const other = "?api=http%3A%2F%2F127.0.0.1%3A4010";
    const asked: string[] = [];
    expect(chooseApiBase(at(other), (q) => (asked.push(q), false), storage)).toBe(PAGE);
    expect(chooseApiBase(at(other), (q) => (asked.push(q), true), storage)).toBe("http://127.0.0.1:4010");
    expect(chooseApiBase(at(other), (q) => (asked.push(q), false), storage)).toBe("http://127.0.0.1:4010");
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain("http://127.0.0.1:4010");
  });
});
