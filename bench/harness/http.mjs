// HTTP requests to the server (or its bare reference), one at a time or as a load.
import { Agent, request } from "node:http";
import { median, quantile } from "./timing.mjs";

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** One request, over a keep-alive connection unless `fresh`; resolves with status, headers and the body's bytes. */
export function httpRequest(method, url, { body, headers = {}, fresh = false } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(url, {
      method,
      agent: fresh ? false : agent,
      headers: payload ? { ...headers, "content-type": "application/json", "content-length": payload.length } : headers,
    });
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.end(payload);
  });
}

/**
 * `concurrency` clients GET `url` back to back for `seconds` (after a warm-up): requests per
 * second and latency quantiles in ms. Every answer must be a 200.
 */
export async function loadTest(url, { seconds = 3, concurrency = 16, warmupSeconds = 0.5 } = {}) {
  const phase = async (ms) => {
    const until = performance.now() + ms;
    const latencies = [];
    let bytes = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          const t = performance.now();
          const res = await httpRequest("GET", url);
          if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${res.body.toString().slice(0, 300)}`);
          latencies.push(performance.now() - t);
          bytes = res.body.length;
        }
      }),
    );
    return { latencies, bytes };
  };
  await phase(warmupSeconds * 1000);
  const started = performance.now();
  const { latencies, bytes } = await phase(seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  return { rps: latencies.length / elapsed, p50: median(latencies), p99: quantile(latencies, 0.99), requests: latencies.length, bytes };
}

/**
 * A JSON API client of the server at `api` (…/api/v1): throws on any answer but 2xx; on a
 * 5xx the error also holds the server's last log lines (which never hold a secret).
 */
export function apiClient(api, serverLog = () => "") {
  const call = async (method, path, body) => {
    const res = await httpRequest(method, api + path, { body });
    const text = res.body.toString();
    if (res.status < 200 || res.status > 299) {
      const log = res.status >= 500 ? `\nserver log:\n${serverLog().split("\n").slice(-6).join("\n")}` : "";
      throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}${log}`);
    }
    return text ? JSON.parse(text) : undefined;
  };
  return call;
}
