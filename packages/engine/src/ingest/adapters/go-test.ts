import { FileProblems, type FileProblem, type Measure } from "./measures.js";

/** `BenchmarkName-8   1000000   1052 ns/op   16 B/op   1 allocs/op` (the `-8` is GOMAXPROCS, absent when 1). */
const LINE = /^(Benchmark\S*?)(?:-(\d+))?\s+(\d+)((?:\s+[-+0-9.eE]+\s+\S+)+)\s*$/;
const PAIR = /([-+0-9.eE]+)\s+(\S+)/g;

/** Units where more is better; every other one (ns/op, B/op, allocs/op...) is a cost. */
const HIGHER_IS_BETTER = new Set(["MB/s"]);

/**
 * `go test -bench` output (text; `-count N` repeats each line N times: its values are the
 * sample). Each benchmark's `ns/op` is a metric named after it; its other figures (`B/op`,
 * `allocs/op`, `MB/s`, custom ones) are metrics of the same name tagged `unit`. `-N` (GOMAXPROCS)
 * and the `pkg:` line above are tags. Other lines (goos, PASS, ok) are skipped; a line that
 * starts like a result but does not read as one is a problem that names it.
 */
export function goTest(text: string): Measure[] {
  const problems: FileProblem[] = [];
  const measures = new Map<string, Measure & { values: number[] }>();
  let pkg: string | undefined;
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.replace(/\r$/, "");
    if (line.startsWith("pkg: ")) pkg = line.slice(5).trim();
    if (!/^Benchmark\S*\s+\d/.test(line)) continue;
    const m = LINE.exec(line);
    if (!m) {
      problems.push({ where: `line ${i + 1}`, message: `does not read as a benchmark's result: ${line.slice(0, 120)}` });
      continue;
    }
    const [, name, procs, , figures] = m;
    const tags: Record<string, string> = { ...(pkg ? { pkg } : {}), ...(procs ? { procs } : {}) };
    for (const [, value, unit] of figures.matchAll(PAIR)) {
      const v = Number(value);
      if (!Number.isFinite(v)) {
        problems.push({ where: `line ${i + 1}`, message: `${value} ${unit} is not a number` });
        continue;
      }
      const unitTags = unit === "ns/op" ? tags : { ...tags, unit };
      const key = JSON.stringify([name, Object.entries(unitTags).sort()]);
      const known = measures.get(key);
      if (known) known.values.push(v);
      else measures.set(key, { metric: name, tags: unitTags, unit, better: HIGHER_IS_BETTER.has(unit) ? "higher" : "lower", values: [v] });
    }
  }
  if (problems.length === 0 && measures.size === 0)
    problems.push({ where: "line 1", message: "the output holds no benchmark result (go test -bench . -run '^$')" });
  if (problems.length > 0) throw new FileProblems(problems);
  return [...measures.values()];
}
