import { pipeline } from "node:stream/promises";
import type { Request, Response } from "express";
import { BenchwrightError, type StepLogView } from "@benchwright/engine";
import { parseByteRange } from "./byte-range.js";

/**
 * Sends a step's log: whole (200), one byte range (206, RFC 9110), or followed until the
 * step attempt ends (200, chunked). A Range that starts past the end is a 416 problem;
 * several ranges, or a header that is not a byte range, get the whole log.
 */
export async function sendLog(req: Request, res: Response, log: StepLogView, follow: boolean, ended?: AbortSignal): Promise<void> {
  res.type("text/plain; charset=utf-8").set("Accept-Ranges", "bytes");
  if (follow) {
    // Until the attempt ends, the client goes away or its token ends (`ended`); no length can be known.
    const gone = new AbortController();
    res.on("close", () => gone.abort());
    res.status(200).flushHeaders();
    await pipe(log.follow({ signal: ended ? AbortSignal.any([gone.signal, ended]) : gone.signal }), res);
    return;
  }
  const range = parseByteRange(req.get("range"), log.size);
  if (range.kind === "unsatisfiable") {
    res.set("Content-Range", `bytes */${log.size}`);
    const { step, attempt } = log.key;
    throw new BenchwrightError("range_not_satisfiable", `The log of ${step} ${attempt} holds ${log.size} bytes: the range asked for starts past its end`);
  }
  if (range.kind === "range") {
    const { start, end } = range;
    res
      .status(206)
      .set("Content-Range", `bytes ${start}-${end}/${log.size}`)
      .set("Content-Length", String(end - start + 1));
    await pipe(log.read({ start, end: end + 1 }), res);
    return;
  }
  res.status(200).set("Content-Length", String(log.size));
  await pipe(log.read({ start: 0, end: log.size }), res);
}

/** Streams to the client; a client that leaves early is not an error. */
export async function pipe(source: NodeJS.ReadableStream, res: Response): Promise<void> {
  try {
    await pipeline(source, res);
  } catch (e) {
    if (res.destroyed || (e as { code?: string }).code === "ERR_STREAM_PREMATURE_CLOSE") return;
    throw e;
  }
}
