import type { Metric, Parser } from "../types.js";
import { findJsonObject, isObject, jsonNumber, push } from "./util.js";

/** iperf3 `-J`: throughput both ways; retransmits for TCP; jitter and loss for UDP. */
export const iperf3: Parser = (output) => {
  const doc = findJsonObject(output, (v) => isObject(v.start) || isObject(v.end));
  // A failed test still prints JSON, with an `error` member and partial or empty sums.
  if (!doc || doc.error !== undefined || !isObject(doc.end) || !isObject(doc.start)) return [];
  const end = doc.end;
  const testStart = isObject(doc.start.test_start) ? doc.start.test_start : {};
  const protocol = typeof testStart.protocol === "string" ? testStart.protocol.toLowerCase() : "";
  const tags = protocol ? { protocol } : undefined;
  const out: Metric[] = [];

  if (protocol === "udp") {
    const sum = isObject(end.sum) ? end.sum : undefined;
    const sent = isObject(end.sum_sent) ? end.sum_sent : sum;
    const received = isObject(end.sum_received) ? end.sum_received : undefined;
    push(out, "sent_bits_per_second", jsonNumber(sent?.bits_per_second), "bit/s", tags);
    push(out, "received_bits_per_second", jsonNumber(received?.bits_per_second), "bit/s", tags);
    // Jitter and loss are the receiver's; older iperf3 only reports them in `sum`.
    const rx = received ?? sum;
    push(out, "jitter_ms", jsonNumber(rx?.jitter_ms), "ms", tags);
    push(out, "lost_percent", jsonNumber(rx?.lost_percent), "%", tags);
    push(out, "lost_packets", jsonNumber(rx?.lost_packets), "packets", tags);
    return out;
  }
  const sent = isObject(end.sum_sent) ? end.sum_sent : {};
  const received = isObject(end.sum_received) ? end.sum_received : {};
  push(out, "sent_bits_per_second", jsonNumber(sent.bits_per_second), "bit/s", tags);
  push(out, "received_bits_per_second", jsonNumber(received.bits_per_second), "bit/s", tags);
  push(out, "retransmits", jsonNumber(sent.retransmits), "retransmits", tags);
  return out;
};
