import type { ExecutionTelemetry, TelemetryTrack } from "@benchwright/sdk";
import { figure } from "./format.js";

/** One figure of a machine's summary (`cpu_steal_mean`...), when the server gave it. */
export function summaryFigure(track: Pick<TelemetryTrack, "summary">, name: string): number | undefined {
  return track.summary.find((f) => f.name === name)?.value;
}

/** What a side of a comparison shows of a run's machines: steal and iowait, the worst machine's where there are several. */
export interface StealAndIowait {
  stealMean: number;
  stealMax: number;
  iowaitMean: number;
}

/** The run's steal and iowait over its machines (their worst), or undefined when it took no samples. */
export function stealAndIowait(telemetry: Pick<ExecutionTelemetry, "machines"> | undefined): StealAndIowait | undefined {
  const machines = telemetry?.machines.filter((m) => m.samples.length > 0) ?? [];
  if (!machines.length) return undefined;
  const worst = (name: string) => Math.max(...machines.map((m) => summaryFigure(m, name) ?? 0));
  return { stealMean: worst("cpu_steal_mean"), stealMax: worst("cpu_steal_max"), iowaitMean: worst("cpu_iowait_mean") };
}

/** `steal 2.5% (max 10%), iowait 0.3%`, as the comparison's table cell and the execution page say it. */
export function stealAndIowaitText(s: StealAndIowait | undefined): string {
  if (!s) return "";
  return `steal ${figure(s.stealMean)}% (max ${figure(s.stealMax)}%), iowait ${figure(s.iowaitMean)}%`;
}

/** A machine's part as its chart's caption names it: the machine, its role, its repetition. */
export function trackTitle(track: Pick<TelemetryTrack, "machine_id" | "role" | "repetition">, repeated: boolean): string {
  return [track.machine_id, track.role ? `role ${track.role}` : "", repeated ? `repetition ${track.repetition}` : ""].filter(Boolean).join(", ");
}
