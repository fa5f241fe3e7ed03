import type { Session } from "@benchwright/contract";
import { BenchwrightError } from "@benchwright/engine";

/**
 * The session, unless it was deleted: then a 410, as the Benchmarking Suite's clients treat
 * a deleted session as gone (its server answered an error). Its executions stay readable, and
 * `GET /sessions/?state=deleted` still lists its record.
 */
export function unlessGone(session: Session): Session {
  if (session.state !== "deleted") return session;
  const when = session.deleted ?? undefined;
  throw new BenchwrightError(
    "session_gone",
    `Session ${session.id} was deleted${when ? ` at ${when}` : ""}; its executions stay readable under /sessions/${session.id}/executions/`,
    { deleted: when },
  );
}
