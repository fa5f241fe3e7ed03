import { BenchwrightProblemError, type Session } from "@benchwright/sdk";
import { api } from "./api.js";

/** Which sessions the list shows: the API lists `active` and `deleting` ones unless asked. */
export type SessionsShown = "open" | "deleted" | "all";

const SHOWN_STATES: Record<SessionsShown, Array<Session["state"]> | undefined> = {
  open: undefined,
  deleted: ["deleted"],
  all: ["active", "deleting", "deleted"],
};

/**
 * The sessions in the states asked for. Through the raw client: the SDK's filter knows the
 * states the API listed before deleted sessions could be (`?state=deleted`).
 */
export async function listSessions(shown: SessionsShown, signal: AbortSignal): Promise<Session[]> {
  const { data, error, response } = await api().raw.GET("/sessions/", {
    params: { query: { state: SHOWN_STATES[shown] } },
    querySerializer: { array: { style: "form", explode: false } },
    signal,
  });
  if (!response.ok) throw BenchwrightProblemError.from(error, response);
  return data as Session[];
}
