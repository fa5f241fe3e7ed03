import { describe, expect, it } from "vitest";
import { expandCells, matrixSize } from "./param-matrix.js";

describe("a benchmark's matrix", () => {
  it("crosses its lists, the last varying fastest, with the single values in every cell", () => {
    const params = { threads: [1, 4], duration: [10, 20, 30], mode: "x" };
    expect(matrixSize(params, false)).toEqual({ cells: 6, problems: [] });
    expect(expandCells(params, false)).toEqual([
      { mode: "x", threads: 1, duration: 10 },
      { mode: "x", threads: 1, duration: 20 },
      { mode: "x", threads: 1, duration: 30 },
      { mode: "x", threads: 4, duration: 10 },
      { mode: "x", threads: 4, duration: 20 },
      { mode: "x", threads: 4, duration: 30 },
    ]);
  });

  it("pairs its lists element by element with zip", () => {
    const params = { threads: [1, 4, 16], duration: [10, 20, 30] };
    expect(matrixSize(params, true)).toEqual({ cells: 3, problems: [] });
    expect(expandCells(params, true)).toEqual([
      { threads: 1, duration: 10 },
      { threads: 4, duration: 20 },
      { threads: 16, duration: 30 },
    ]);
  });

  it("is one cell without lists, and without params", () => {
    expect(matrixSize({ threads: 2 }, false)).toEqual({ cells: 1, problems: [] });
    expect(matrixSize({}, true)).toEqual({ cells: 1, problems: [] });
    expect(expandCells({}, false)).toEqual([{}]);
    expect(expandCells({ threads: 2 }, true)).toEqual([{ threads: 2 }]);
  });

  it("refuses zip on lists of unequal lengths", () => {
    expect(matrixSize({ threads: [1, 4, 16], duration: [10, 20] }, true)).toEqual({
      cells: 0,
      problems: [{ at: "zip", message: "pairs lists of unequal lengths (threads: 3, duration: 2): give them one length, or cross them" }],
    });
  });

  it("refuses an empty list: the matrix would have no cell", () => {
    for (const zip of [false, true]) {
      expect(matrixSize({ threads: [], duration: [10] }, zip)).toEqual({
        cells: 0,
        problems: [{ at: "params/threads", message: "is an empty list: the matrix has no cell" }],
      });
    }
  });

  it("counts a matrix too large to spell out without spelling it", () => {
    const big = Array.from({ length: 1000 }, (_, i) => i);
    expect(matrixSize({ a: big, b: big, c: big }, false).cells).toBe(1e9);
  });
});
