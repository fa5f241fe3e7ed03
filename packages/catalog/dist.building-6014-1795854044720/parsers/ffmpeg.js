import { push, toNumber } from "./util.js";
const BENCH = /^bench: utime=[\d.]+s stime=[\d.]+s rtime=([\d.]+)s\s*$/m;
const ffmpeg = (output) => {
  const lines = output.split(/\r?\n/).map((l) => l.trim());
  const end = lines.lastIndexOf("progress=end");
  const seconds = toNumber(BENCH.exec(output)?.[1]);
  if (end < 0 || !seconds) return [];
  let start = end;
  while (start > 0 && !lines[start - 1].startsWith("progress=")) start--;
  const block = /* @__PURE__ */ new Map();
  for (const line of lines.slice(start, end)) {
    const eq = line.indexOf("=");
    if (eq > 0) block.set(line.slice(0, eq), line.slice(eq + 1));
  }
  const frames = toNumber(block.get("frame"));
  if (!frames) return [];
  const out = [];
  push(out, "fps", Math.round(frames / seconds * 100) / 100, "frames/s");
  push(out, "frames", frames, "frames");
  push(out, "encode_seconds", seconds, "s");
  push(out, "speed", toNumber(block.get("speed")?.replace(/x$/, "")), "x");
  return out;
};
export {
  ffmpeg
};
//# sourceMappingURL=ffmpeg.js.map
