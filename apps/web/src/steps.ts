import { waitForStep } from "@benchwright/sdk";
import { api } from "./api.js";

/**
 * Prepares, then runs once the prepare has succeeded, each answered at once (the page follows
 * the steps on the event stream). Rejects with the API's problem when a call is refused, or
 * with the prepare's error when it failed (the execution then says `prepare_failed`).
 */
export async function prepareThenRun(execId: string): Promise<void> {
  const prepare = await api().prepare(execId, { async: true });
  const ended = await waitForStep(api(), prepare);
  if (ended.state !== "succeeded") throw new Error(`The prepare failed${ended.error ? `: ${ended.error.detail}` : ""}; nothing was run`);
  await api().run(execId, { async: true });
}
