import { BenchwrightError } from "../errors.js";
import type { Store } from "../store/store.js";
import type { SessionRow } from "../model/sessions.js";

/** The session's row, unless it does not exist or is deleted. */
export async function liveSession(store: Store, id: string): Promise<SessionRow> {
  const row = await store.sessions.get(id);
  if (!row || row.state === "deleted") throw new BenchwrightError("not_found", `No session ${id}`);
  return row;
}
