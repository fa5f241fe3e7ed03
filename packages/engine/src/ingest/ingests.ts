import { randomUUID } from "node:crypto";
import type { Ingest, IngestCreate } from "@benchwright/contract";
import { BenchwrightError } from "../errors.js";
import { POINT_FACTS, type RunFigure } from "../model/series.js";
import { summarize, studentTQuantile } from "../results/statistics.js";
import type { Store } from "../store/store.js";
import { formatTimestamp } from "../time.js";
import { ADAPTERS } from "./adapters/index.js";
import { FileProblems, type Measure } from "./adapters/measures.js";

/**
 * Results of harnesses Benchwright does not run (hyperfine, Google Benchmark, pytest-benchmark,
 * `go test -bench`, the generic JSON), made points of series like a run's: the change checker,
 * alerts, the gate and the dashboard read them unchanged. A file with a problem is refused with
 * every problem named (a JSON Pointer into it, or its line), and nothing is stored.
 */
export class Ingests {
  constructor(
    private readonly store: Store,
    /** Called once the points are stored: the change checker looks at them now. */
    private readonly added: () => void,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async ingest(body: IngestCreate, owner: string): Promise<Ingest> {
    const adapter = ADAPTERS[body.adapter];
    if (!adapter) throw invalid([{ path: "/body/adapter", message: `must be one of ${Object.keys(ADAPTERS).join(", ")}` }]);
    let measures: Measure[];
    try {
      measures = adapter(body.output);
    } catch (e) {
      if (!(e instanceof FileProblems)) throw e;
      throw invalid(
        e.problems.map((p) => ({
          path: p.where.startsWith("/") ? `/body/output${p.where}` : "/body/output",
          message: p.where.startsWith("/") ? p.message : `${p.where}: ${p.message}`,
        })),
      );
    }
    const figures = measures.map(figureOf);
    const facts = Object.fromEntries(Object.entries(body.facts ?? {}).filter(([k, v]) => (POINT_FACTS as readonly string[]).includes(k) && v));
    const ingest = {
      id: randomUUID(),
      owner,
      adapter: body.adapter,
      benchmark: body.benchmark ?? "default",
      target: body.target ?? "default",
      branch: body.branch ?? null,
      commit_id: body.commit ?? null,
      at: this.now(),
      facts,
    };
    const points = await this.store.ingests.record(ingest, figures);
    this.added();
    const seqOf = new Map(points.map((p) => [p.series_id, Number(p.seq)]));
    const rows = await this.store.ingests.points(ingest.id);
    return {
      id: ingest.id,
      adapter: body.adapter,
      benchmark: ingest.benchmark,
      target: ingest.target,
      branch: ingest.branch,
      commit: ingest.commit_id,
      created: formatTimestamp(ingest.at),
      points: rows.map((p) => ({
        series_id: p.series_id,
        seq: seqOf.get(p.series_id) ?? Number(p.seq),
        metric: { name: p.series.metric, tags: p.series.tags, unit: p.series.unit, better: p.series.better ?? "higher" },
        n: Number(p.n),
        mean: p.mean,
        ci_low: p.ci_low,
        ci_high: p.ci_high,
      })),
    };
  }
}

/** A measure's sample summarised as a run's figure: n, mean and the 95% interval of the mean (null with one value). */
function figureOf(m: Measure): RunFigure {
  const base = { metric: m.metric, tags: m.tags, unit: m.unit, better: m.better };
  if (m.values) {
    const s = summarize(m.values);
    return { ...base, n: s.n, mean: s.mean, ci_low: s.n > 1 ? s.ci_low : null, ci_high: s.n > 1 ? s.ci_high : null };
  }
  const { n, mean, stddev } = m.summary!;
  const half = n > 1 ? studentTQuantile(0.975, n - 1) * (stddev / Math.sqrt(n)) : 0;
  return { ...base, n, mean, ci_low: n > 1 ? mean - half : null, ci_high: n > 1 ? mean + half : null };
}

function invalid(errors: Array<{ path: string; message: string }>): BenchwrightError {
  const detail = errors.map((e) => `${e.path}: ${e.message}`).join("; ");
  return new BenchwrightError("validation_failed", `The harness's output cannot be ingested: ${detail}`, { errors });
}
