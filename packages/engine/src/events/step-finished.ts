import type { DescribeStepEnd } from "../model/events.js";
import { metricsView } from "../results/repetitions.js";
import { formatDuration, formatTimestamp } from "../time.js";

/** A step.finished event's data: the step attempt as its resource shows it, its metrics as the records show them. */
export const stepFinishedData: DescribeStepEnd = (step, attempt, started, end) => ({
  step,
  attempt,
  state: end.state,
  started: formatTimestamp(started),
  duration: formatDuration(end.duration),
  exit_code: end.exit_code,
  ...(end.state === "failed" ? { error: { code: end.error_code ?? "step_failed", detail: end.error ?? "" } } : {}),
  ...(end.metrics ? { metrics: metricsView(end.metrics) } : {}),
});
