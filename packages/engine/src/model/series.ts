import type { StoredMetric } from "./metrics.js";

type Better = "higher" | "lower";

/** The facts of the machines a point records, when they are known: what may explain a change. */
export const POINT_FACTS = ["kernel", "cpu_model", "microcode", "os_release", "tool_version", "image", "instance_type", "zone"] as const;
type PointFact = (typeof POINT_FACTS)[number];

/** One metric (name and tags) of one successful run, summarised over its repetitions (and machines). */
export interface RunFigure {
  metric: string;
  tags: Record<string, string>;
  unit: string;
  better: Better | null;
  n: number;
  mean: number;
  /** The 95% interval of the mean; null with one value. */
  ci_low: number | null;
  ci_high: number | null;
}

/** Summarises a successful run's metrics into one figure per metric (see series/run-figures.ts). */
export type DescribeRunFigures = (metrics: readonly StoredMetric[]) => RunFigure[];

/** A series' baseline as stored: its points, and the margin its comparisons claim with (absent: none, as before margins). */
export interface StoredBaseline {
  from: number;
  to: number;
  margin?: number;
}

/** A series as stored: its identity, what its metric means, how many points and its baseline. */
export interface SeriesRow {
  id: string;
  seq: string;
  tool: string;
  workload: string;
  params: Record<string, unknown>;
  metric: string;
  tags: Record<string, string>;
  provider: string;
  service_type: string;
  unit: string;
  better: Better | null;
  /** The last point's seq: points are numbered from 1. */
  points: number;
  first_at: Date | null;
  last_at: Date | null;
  baseline: StoredBaseline | null;
  created: Date;
}

export interface SeriesPointRow {
  series_id: string;
  seq: number;
  /** The execution that measured it; null for a point of an ingest (a harness Benchwright did not run). */
  execution_id: string | null;
  plan_run_id: string | null;
  ingest_id: string | null;
  /** The branch and commit of the code it measured, when its client said them. */
  branch: string | null;
  commit_id: string | null;
  at: Date;
  n: number;
  mean: number;
  ci_low: number | null;
  ci_high: number | null;
  facts: Partial<Record<PointFact, string>>;
}

export interface FactChange {
  fact: PointFact;
  before: string[];
  after: string[];
}

export interface SeriesChangeRow {
  id: string;
  seq: string;
  series_id: string;
  point_seq: number;
  at: Date;
  execution_id: string | null;
  /** The ingest of the first point of the new level, when it was ingested. */
  ingest_id?: string | null;
  direction: "regression" | "improvement";
  size: number;
  size_ci_low: number | null;
  size_ci_high: number | null;
  p_value: number;
  before: { mean: number; n: number };
  after: { mean: number; n: number };
  facts_changed: FactChange[];
  state: "open" | "acknowledged";
  detected: Date;
  /** 1 as first found; one more for each refinement told again (see refineChange). */
  revision: number;
}
