import type { ClientContext, RequestOptions } from "../client-context.js";
import { streamLog, type LogStreamOptions } from "../logs.js";
import type { StepName } from "../types.js";

export interface LogOptions extends RequestOptions {
  /** Which step; the server defaults to the last step that started. */
  step?: StepName;
  /** Which attempt of the step, from 1; the server defaults to the last one. */
  attempt?: number;
}

export interface LogsMethods {
  /** The whole log of one step, as text. */
  getLog(execId: string, options?: LogOptions): Promise<string>;
  /**
   * A step's log as it streams in, text chunk by text chunk; with `follow: true` it goes on
   * while the step runs and ends when the attempt has ended.
   *
   * @example
   * for await (const text of bw.logs(execId, { step: "run", follow: true })) process.stdout.write(text);
   */
  logs(execId: string, options?: LogStreamOptions): AsyncIterable<string>;
}

export function logsMethods({ raw, unwrap, init }: ClientContext): LogsMethods {
  return {
    getLog: (execId, o) =>
      unwrap(
        raw.GET("/executions/{exec_id}/logs", {
          params: { path: { exec_id: execId }, query: { step: o?.step, attempt: o?.attempt } },
          parseAs: "text",
          ...init(o),
        }),
      ),
    logs: (execId, o) => streamLog(raw, execId, o),
  };
}
