import type { ExecutionTelemetry, TelemetrySample as SampleView, TelemetryTrack as TrackView } from "@benchwright/contract";
import { SAMPLE_FIELDS, type TelemetrySample, type TelemetryTrack } from "../model/telemetry.js";
import { csvLine } from "../results/csv-record.js";
import { telemetrySummary } from "../results/telemetry.js";

/** A stored sample as the wire shows it: its times as ISO 8601 with milliseconds. */
function sampleView({ t, from, ...figures }: TelemetrySample): SampleView {
  return { at: new Date(t).toISOString(), ...(from === undefined ? {} : { from: new Date(from).toISOString() }), ...figures };
}

/** One machine's part: its samples and their summary. */
export function trackView(track: TelemetryTrack): TrackView {
  return {
    machine_id: track.machine_id,
    role: track.role,
    repetition: track.repetition,
    cpus: track.cpus,
    summary: telemetrySummary(track.samples),
    samples: track.samples.map(sampleView),
  };
}

const CSV_HEADER = ["attempt", "machine_id", "role", "repetition", "cpus", "at", ...SAMPLE_FIELDS];

/** The telemetry as CSV (RFC 4180, CRLF, a header line): one line per sample, its machine's place first. */
export function telemetryCsv(view: ExecutionTelemetry): string {
  let text = csvLine(CSV_HEADER);
  for (const m of view.machines) {
    for (const s of m.samples) text += csvLine([view.attempt, m.machine_id, m.role, m.repetition, m.cpus, s.at, ...SAMPLE_FIELDS.map((f) => s[f])]);
  }
  return text;
}
