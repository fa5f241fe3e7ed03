// Tests only (`@benchwright/engine/test-access`): the store beneath the facade, which nothing
// else outside the engine reaches. A server or engine test that sets up or reads rows the API
// does not show, or spies on a repository, goes through here, never through the Engine.
import type { Engine } from "./engine.js";
import type { EventLog } from "./events/event-log.js";
import type { Store } from "./store/store.js";

/** The engine's store: a white-box test's door beneath the facade. */
export function engineStore(engine: Engine): Store<EventLog> {
  // biome-ignore lint/complexity/useLiteralKeys: a private member, read by name on purpose (the compiler refuses `engine.parts` everywhere else).
  return engine["parts"].store;
}

/** Every row of every table, for tests that assert a refused request changed nothing. */
export function storeSnapshot(engine: Engine): Promise<string> {
  return engineStore(engine).snapshot();
}

/** A statement on the engine's database, for tests that set up or read rows the API does not show. */
export function queryDatabase<T = Record<string, unknown>>(engine: Engine, sql: string, params?: unknown[]): Promise<T[]> {
  return engineStore(engine).db.query<T>(sql, params);
}
