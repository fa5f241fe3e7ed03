import { runFigures } from "../series/run-figures.js";
import type { Db } from "../store/db.js";
import { Store } from "../store/store.js";
import { EventLog } from "./event-log.js";
import { stepFinishedData } from "./step-finished.js";

/** The engine's store on `db`, its changes told in the event log that readers follow, each successful run's figures appended to their series. */
export function storeWithEvents(db: Db): Store<EventLog> {
  return new Store(db, new EventLog(db), stepFinishedData, runFigures);
}
