// The series and changes methods against the Prism mock (the contract's examples).
import { beforeEach, describe, expect, inject, it } from "vitest";
import { createClient } from "./client.js";
import { BenchwrightProblemError } from "./errors.js";

const SERIES_ID = "2b7e1c9a-4d3f-4a8b-9e6c-5f1d0a2b3c4e";
const CHANGE_ID = "6c2d8e4f-1a3b-4c5d-8e9f-0a1b2c3d4e5f";
/** The contract's example of `X-Next-Cursor`, which Prism sends with every page. */
const CURSOR = "WyJlIiwiNDIiXQ";
const prismUrl = inject("prismUrl");

const sent: Request[] = [];
const bw = createClient({
  baseUrl: prismUrl,
  fetch: (request) => {
    sent.push(request.clone());
    return fetch(request);
  },
});
const lastRequest = () => sent[sent.length - 1]!;
const lastUrl = () => new URL(lastRequest().url);

beforeEach(() => {
  sent.length = 0;
});

describe("series", () => {
  it("lists series with their filters as the contract spells them", async () => {
    const list = await bw.listSeries({ tool: "sysbench", workload: "cpu_10000", metric: "events_per_second", provider: "local", serviceType: "default" });
    expect(list[0]).toMatchObject({ id: SERIES_ID, metric: { name: "events_per_second", better: "higher" }, open_changes: 1 });
    expect(lastUrl().pathname).toBe("/api/v1/series/");
    expect(lastUrl().search).toBe("?tool=sysbench&workload=cpu_10000&metric=events_per_second&provider=local&service_type=default");

    const page = await bw.listSeriesPage({ limit: 1 });
    expect(page.items).toHaveLength(1);
    expect(lastUrl().search).toBe("?limit=1");
    // Prism always names a next page (the contract's example cursor): the loop asks for it once the first is taken.
    const followed = [];
    for await (const s of bw.series({ tool: "sysbench", pageSize: 5 })) if (followed.push(s.id) === 2) break;
    expect(followed).toEqual([SERIES_ID, SERIES_ID]);
    expect(sent.slice(-2).map((r) => new URL(r.url).search)).toEqual(["?tool=sysbench&limit=5", `?tool=sysbench&limit=5&cursor=${CURSOR}`]);
  });

  it("gets a series with its latest point and baseline", async () => {
    const s = await bw.getSeries(SERIES_ID, { fields: "id,latest" });
    expect(s.latest).toMatchObject({ seq: 40, n: 5 });
    expect(s.baseline).toMatchObject({ from: 1, to: 5 });
    expect(lastUrl().pathname).toBe(`/api/v1/series/${SERIES_ID}`);
    expect(lastRequest().headers.get("X-Fields")).toBe("id,latest");
  });

  it("lists a series' points, a page of them, and follows their pages", async () => {
    const points = await bw.listSeriesPoints(SERIES_ID);
    expect(points.map((p) => p.seq)).toEqual([33, 34]);
    expect(points[1]!.facts.tool_version).toBe("sysbench 1.0.20+ds-6");
    expect(lastUrl().pathname).toBe(`/api/v1/series/${SERIES_ID}/points`);
    await bw.listSeriesPointsPage(SERIES_ID, { limit: 2, cursor: "abc" });
    expect(lastUrl().search).toBe("?limit=2&cursor=abc");
    const seqs = [];
    for await (const p of bw.seriesPoints(SERIES_ID)) if (seqs.push(p.seq) === 3) break;
    expect(seqs).toEqual([33, 34, 33]);
    expect(lastUrl().search).toBe(`?limit=100&cursor=${CURSOR}`);
  });

  it("asks for one branch's points", async () => {
    await bw.listSeriesPoints(SERIES_ID, { branch: "feature/a" });
    expect(lastUrl().search).toBe("?branch=feature%2Fa");
  });

  it("sets and clears the baseline", async () => {
    const s = await bw.setSeriesBaseline(SERIES_ID, { from: 1, to: 5 });
    expect(s.latest_vs_baseline).toMatchObject({ direction: "regression" });
    expect(lastRequest().method).toBe("PUT");
    expect(lastUrl().pathname).toBe(`/api/v1/series/${SERIES_ID}/baseline`);
    expect(await lastRequest().json()).toEqual({ from: 1, to: 5 });

    await expect(bw.clearSeriesBaseline(SERIES_ID)).resolves.toBeUndefined();
    expect(lastRequest().method).toBe("DELETE");
    expect(lastUrl().pathname).toBe(`/api/v1/series/${SERIES_ID}/baseline`);
  });

  it("throws the problem of a baseline the contract refuses", async () => {
    const err = await bw.setSeriesBaseline(SERIES_ID, { from: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BenchwrightProblemError);
    expect((err as BenchwrightProblemError).status).toBe(400);
  });
});

describe("changes", () => {
  it("lists a series' changes", async () => {
    const changes = await bw.listSeriesChanges(SERIES_ID);
    expect(changes[0]).toMatchObject({ id: CHANGE_ID, seq: 34, direction: "regression" });
    expect(lastUrl().pathname).toBe(`/api/v1/series/${SERIES_ID}/changes`);
    await bw.listSeriesChangesPage(SERIES_ID, { limit: 1 });
    expect(lastUrl().search).toBe("?limit=1");
  });

  it("lists every change with its filters, and follows their pages", async () => {
    const open = await bw.listChanges({ direction: "regression", state: "open", seriesId: SERIES_ID });
    expect(open[0]!.facts_changed).toEqual([{ fact: "tool_version", before: ["sysbench 1.0.20+ds-5"], after: ["sysbench 1.0.20+ds-6"] }]);
    expect(lastUrl().pathname).toBe("/api/v1/changes/");
    expect(lastUrl().search).toBe(`?direction=regression&state=open&series_id=${SERIES_ID}`);
    const page = await bw.listChangesPage({ limit: 1 });
    expect(page.items).toHaveLength(1);
    const ids = [];
    for await (const c of bw.changes({ state: "open" })) if (ids.push(c.id) === 2) break;
    expect(ids).toEqual([CHANGE_ID, CHANGE_ID]);
    expect(lastUrl().search).toBe(`?state=open&limit=100&cursor=${CURSOR}`);
  });

  it("gets and acknowledges a change", async () => {
    expect((await bw.getChange(CHANGE_ID)).state).toBe("open");
    expect(lastUrl().pathname).toBe(`/api/v1/changes/${CHANGE_ID}`);
    const acknowledged = await bw.acknowledgeChange(CHANGE_ID);
    expect(acknowledged.state).toBe("acknowledged");
    expect(lastRequest().method).toBe("POST");
    expect(lastUrl().pathname).toBe(`/api/v1/changes/${CHANGE_ID}/acknowledge`);
  });

  it("throws a 400 for a change id that is no uuid", async () => {
    const err = await bw.getChange("6c2d8e4f").catch((e: unknown) => e);
    expect((err as BenchwrightProblemError).status).toBe(400);
  });
});
