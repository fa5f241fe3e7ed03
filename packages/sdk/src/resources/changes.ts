import type { CallOptions, ClientContext } from "../client-context.js";
import type { FollowOptions, Page, PageOptions } from "../lists.js";
import { changeQuery, type ChangeFilters } from "../series-filters.js";
import type { Change } from "../types.js";

/** Options of `listChanges`: its filters (without them, every change). */
export type ListChangesOptions = CallOptions & ChangeFilters;

export interface ChangesMethods {
  /**
   * The changes found in every series that match the filters, newest first.
   *
   * @example
   * const open = await bw.listChanges({ direction: "regression", state: "open" });
   * for (const c of open) console.log(c.series.metric.name, c.size, c.facts_changed.map((f) => f.fact));
   */
  listChanges(options?: ListChangesOptions): Promise<Change[]>;
  /** One page of them: at most `limit`, from `cursor` on, and the `nextCursor` when more match. */
  listChangesPage(options?: ListChangesOptions & PageOptions): Promise<Page<Change>>;
  /** The changes that match the filters, page after page (`pageSize` at a time) as the loop goes. */
  changes(options?: ListChangesOptions & FollowOptions): AsyncIterable<Change>;
  getChange(changeId: string, options?: CallOptions): Promise<Change>;
  /** Marks the change as seen (`acknowledged`, no longer open); an acknowledged change is answered again. */
  acknowledgeChange(changeId: string, options?: CallOptions): Promise<Change>;
}

export function changesMethods({ raw, unwrap, init, listInit, fieldsHeader, readPage, itemsOf, follow }: ClientContext): ChangesMethods {
  const changesPage = (o?: ListChangesOptions & PageOptions) =>
    readPage<Change>(raw.GET("/changes/", { params: { header: fieldsHeader(o), query: changeQuery(o) }, ...listInit(o) }));
  return {
    listChanges: (o) => itemsOf(changesPage(o)),
    listChangesPage: changesPage,
    changes: (o) => follow(o, changesPage),
    getChange: (changeId, o) => unwrap(raw.GET("/changes/{change_id}", { params: { path: { change_id: changeId }, header: fieldsHeader(o) }, ...init(o) })),
    acknowledgeChange: (changeId, o) =>
      unwrap(raw.POST("/changes/{change_id}/acknowledge", { params: { path: { change_id: changeId }, header: fieldsHeader(o) }, ...init(o) })),
  };
}
