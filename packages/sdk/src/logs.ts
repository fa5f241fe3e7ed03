import { BenchwrightProblemError } from "./errors.js";
import type { paths } from "./generated/schema.js";
import type { StepName } from "./types.js";
import type { Client } from "openapi-fetch";

/** Options of `logs()`. */
export interface LogStreamOptions {
  /** Which step; the server defaults to the last step that started. */
  step?: StepName;
  /** Which attempt of the step, from 1; the server defaults to the last one. */
  attempt?: number;
  /** Keep reading while the step writes, until the attempt has ended (`follow=true`). */
  follow?: boolean;
  /**
   * Start at this byte of the log (`Range: bytes=<start>-`), say after the bytes a previous
   * read got; without `follow` only. A start at or past the end gives nothing.
   */
  start?: number;
  /** Stops reading: the iteration rejects with the signal's reason. */
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/**
 * A step's log as text, chunk by chunk as the server sends it: a multi-byte character cut
 * between chunks is kept whole. Leaving the loop early closes the connection.
 */
export async function* streamLog(raw: Client<paths>, execId: string, options: LogStreamOptions = {}): AsyncGenerator<string, void, undefined> {
  const { step, attempt, follow, start, signal, headers } = options;
  const range = !follow && start ? { Range: `bytes=${start}-` } : {};
  const { data, error, response } = await raw.GET("/executions/{exec_id}/logs", {
    params: { path: { exec_id: execId }, query: { step, attempt, follow: follow || undefined }, header: range },
    parseAs: "stream",
    headers,
    signal,
  });
  // Nothing at or past `start`.
  if (response.status === 416) return;
  if (!response.ok) throw BenchwrightProblemError.from(error, response);
  if (!data) return;
  const reader = (data as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (text) yield text;
    }
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    await reader.cancel().catch(() => {});
  }
}
