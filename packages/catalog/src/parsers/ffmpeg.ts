import type { Metric, Parser } from "../types.js";
import { push, toNumber } from "./util.js";

// `bench: utime=0.417s stime=0.089s rtime=0.291s`, from -benchmark at the end of the run.
const BENCH = /^bench: utime=[\d.]+s stime=[\d.]+s rtime=([\d.]+)s\s*$/m;

/**
 * `ffmpeg -progress pipe:1 -benchmark`: key=value blocks, each ending with `progress=continue`,
 * the last (over the whole run) with `progress=end`, give the frames and the speed; the
 * `bench:` line the wall time, from which the frames per second (-progress's own `fps` is 0
 * for runs under a second).
 */
export const ffmpeg: Parser = (output) => {
  const lines = output.split(/\r?\n/).map((l) => l.trim());
  const end = lines.lastIndexOf("progress=end");
  const seconds = toNumber(BENCH.exec(output)?.[1]);
  if (end < 0 || !seconds) return [];
  let start = end;
  while (start > 0 && !lines[start - 1]!.startsWith("progress=")) start--;
  const block = new Map<string, string>();
  for (const line of lines.slice(start, end)) {
    const eq = line.indexOf("=");
    if (eq > 0) block.set(line.slice(0, eq), line.slice(eq + 1));
  }
  const frames = toNumber(block.get("frame"));
  if (!frames) return [];
  const out: Metric[] = [];
  push(out, "fps", Math.round((frames / seconds) * 100) / 100, "frames/s");
  push(out, "frames", frames, "frames");
  push(out, "encode_seconds", seconds, "s");
  push(out, "speed", toNumber(block.get("speed")?.replace(/x$/, "")), "x");
  return out;
};
