// Latency and throughput of the read operations, with a realistic number of records.
// Usage: node bench/api-latency.mjs [requests=2000] [concurrency=16]
import { benchServer } from "./harness.mjs";

const total = Number(process.argv[2] ?? 2000);
const concurrency = Number(process.argv[3] ?? 16);
const bench = await benchServer();
try {
  const session = await bench.call("POST", "/sessions/", { provider: "local", service: "default" });
  const ids = [];
  for (let i = 0; i < 50; i++) ids.push((await bench.call("POST", `/sessions/${session.id}/executions/`, { tool: "idle", workload: "idle0" })).id);
  for (const [label, path] of [
    ["GET /benchmarks/", () => "/benchmarks/"],
    ["GET /executions/{id}", (i) => `/executions/${ids[i % ids.length]}`],
    ["GET /sessions/{id} (50 executions)", () => `/sessions/${session.id}`],
    ["GET /executions/ masked id,state", () => "/executions/"],
  ]) {
    const latencies = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < total) {
          const i = next++;
          const t = performance.now();
          const res = await fetch(bench.api + path(i), { headers: label.includes("masked") ? { "X-Fields": "id,state" } : {} });
          await res.arrayBuffer();
          if (!res.ok) throw new Error(`${label}: ${res.status}`);
          latencies.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const p = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(2);
    console.log(`${label}: ${(total / seconds).toFixed(0)} req/s, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms (${total} requests, ${concurrency} at once)`);
  }
} finally {
  await bench.close();
}
