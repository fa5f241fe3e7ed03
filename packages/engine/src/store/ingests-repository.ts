import type { RunFigure, SeriesPointRow, SeriesRow } from "../model/series.js";
import type { Db } from "./db.js";
import { ingestOwner, ingestPoints, insertIngest, keepIngestFacts, type NewIngest, recordIngestPoints } from "./sql/ingest-sql.js";
import { run } from "./sql/sql.js";

export type { NewIngest };

/** A point of an ingest with its series' identity, as a gate reads it. */
export interface IngestPointRow extends Pick<SeriesPointRow, "series_id" | "seq" | "branch" | "commit_id" | "at" | "n" | "mean" | "ci_low" | "ci_high"> {
  ingest_id: string;
  series: Pick<SeriesRow, "tool" | "workload" | "params" | "metric" | "tags" | "provider" | "service_type" | "unit" | "better">;
}

/** Results of harnesses Benchwright does not run, appended to series as points (see ingest/). */
export class IngestsRepository {
  constructor(private readonly db: Db) {}

  /** Records the ingest and its points in one transaction; answers each point's series and seq. */
  async record(ingest: NewIngest, figures: RunFigure[]): Promise<Array<{ series_id: string; seq: number }>> {
    return this.db.transaction(async (tx) => {
      await run(tx, insertIngest(ingest, figures.length));
      const [facts] = await run<{ id: string }>(tx, keepIngestFacts(ingest.facts));
      return run<{ series_id: string; seq: number }>(tx, recordIngestPoints(ingest, Number(facts.id), figures));
    });
  }

  async points(ingestId: string): Promise<IngestPointRow[]> {
    return run<IngestPointRow>(this.db, ingestPoints(ingestId));
  }

  /** The principal who sent the ingest; undefined when there is none. */
  async owner(ingestId: string): Promise<string | undefined> {
    return (await run<{ owner: string }>(this.db, ingestOwner(ingestId)))[0]?.owner;
  }
}
