import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { note, type Context } from "../context.js";
import { UsageError } from "../exit-codes.js";
import { executionFilters, type FilterOptions } from "../filters.js";

export interface ExportOptions extends FilterOptions {
  format: string;
  output?: string;
}

/** `benchwright export`: the server's metrics export, streamed as it comes to stdout or a file. */
export async function exportCommand(options: ExportOptions, ctx: Context): Promise<number> {
  const format = options.format;
  if (format !== "csv" && format !== "jsonl") throw new UsageError(`--format is csv or jsonl, not '${format}'`);
  const data = await ctx.bw.exportMetricsStream({ format, ...executionFilters(options) });
  const body = Readable.fromWeb(data as unknown as WebReadableStream<Uint8Array>);
  if (!options.output) {
    // stdout is not ours to close.
    await pipeline(body, process.stdout as Writable, { end: false });
    return 0;
  }
  try {
    await pipeline(body, createWriteStream(options.output));
  } catch (e) {
    // Half an export looks like a whole one to whoever opens the file later.
    await rm(options.output, { force: true });
    throw e;
  }
  if (!ctx.json) note(`metrics written to ${options.output} (${format})`);
  return 0;
}
