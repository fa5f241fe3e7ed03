import type { components } from "@benchwright/contract";
import type { StepEnd, StepKind } from "./steps.js";

/** One entry of the log, as the contract describes it (and `/events` sends it). */
export type BwEvent = components["schemas"]["Event"];
export type EventType = BwEvent["type"];

type WithoutLogFields<E> = E extends unknown ? Omit<E, "id" | "at"> : never;
/** An event to append: the log gives it its id and time. */
export type NewEvent = WithoutLogFields<BwEvent>;

/** The data of one type of event. */
type EventData<T extends EventType> = Extract<NewEvent, { type: T }>["data"];

export interface EventFilter {
  session_id?: string;
  execution_id?: string;
  /** Only these types; every type when unset or empty. */
  types?: readonly EventType[];
}

/** What a step.finished event says of a step attempt's end: as the step attempt resource says it, no more. */
type StepFinishedData = EventData<"step.finished">;

/** Builds a step.finished event's data from the end the store records (see events/step-finished.ts). */
export type DescribeStepEnd = (step: StepKind, attempt: number, started: Date, end: StepEnd) => StepFinishedData;
