import type { EventsRepository } from "./events-repository.js";

/** What a repository needs of the event log: to append, in its transaction, the events of the change it makes. */
export type EventAppender = Pick<EventsRepository, "appendAll">;
