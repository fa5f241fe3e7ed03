/**
 * Whether a run's report is final, so it can be kept: the run ended, its sessions were deleted
 * (a cancelled run's always are) and their priced machines destroyed, so its figures and costs
 * are settled. `costsSettled` answers the last for the run's sessions.
 */
export async function reportIsFinal(
  plan: { keep_sessions: boolean },
  run: { state: string; sessions: Record<string, string> },
  costsSettled: (sessionIds: string[]) => Promise<boolean>,
): Promise<boolean> {
  return (
    ["completed", "failed", "cancelled"].includes(run.state) &&
    (run.state === "cancelled" || !plan.keep_sessions) &&
    (await costsSettled(Object.values(run.sessions)))
  );
}
