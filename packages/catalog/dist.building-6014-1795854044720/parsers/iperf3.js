import { findJsonObject, isObject, jsonNumber, push } from "./util.js";
const iperf3 = (output) => {
  const doc = findJsonObject(output, (v) => isObject(v.start) || isObject(v.end));
  if (!doc || doc.error !== void 0 || !isObject(doc.end) || !isObject(doc.start)) return [];
  const end = doc.end;
  const testStart = isObject(doc.start.test_start) ? doc.start.test_start : {};
  const protocol = typeof testStart.protocol === "string" ? testStart.protocol.toLowerCase() : "";
  const tags = protocol ? { protocol } : void 0;
  const out = [];
  if (protocol === "udp") {
    const sum = isObject(end.sum) ? end.sum : void 0;
    const sent2 = isObject(end.sum_sent) ? end.sum_sent : sum;
    const received2 = isObject(end.sum_received) ? end.sum_received : void 0;
    push(out, "sent_bits_per_second", jsonNumber(sent2?.bits_per_second), "bit/s", tags);
    push(out, "received_bits_per_second", jsonNumber(received2?.bits_per_second), "bit/s", tags);
    const rx = received2 ?? sum;
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
export {
  iperf3
};
//# sourceMappingURL=iperf3.js.map
