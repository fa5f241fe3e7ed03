import type { Metric, Parser } from "../types.js";
import { push, toNumber } from "./util.js";

// `Avr:  3373  59  5125  3027  |  34799  67  4283  2851`: speed (KiB/s), usage (%), R/U and
// rating (MIPS), compressing then decompressing, mean over the dictionary sizes.
const AVR = /^Avr:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\|\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$/m;
// `Tot:  63  4704  2939`: usage, R/U and rating of both together.
const TOT = /^Tot:\s+(\d+)\s+(\d+)\s+(\d+)\s*$/m;

/** 7-Zip's `7z b`: compression and decompression speed and rating, from a finished run only (Tot: is last). */
export const sevenZip: Parser = (output) => {
  const avr = AVR.exec(output);
  const tot = TOT.exec(output);
  if (!avr || !tot) return [];
  const out: Metric[] = [];
  push(out, "compress_speed", toNumber(avr[1]), "KiB/s");
  push(out, "compress_rating", toNumber(avr[4]), "MIPS");
  push(out, "decompress_speed", toNumber(avr[5]), "KiB/s");
  push(out, "decompress_rating", toNumber(avr[8]), "MIPS");
  push(out, "cpu_usage", toNumber(tot[1]), "%");
  push(out, "total_rating", toNumber(tot[3]), "MIPS");
  return out;
};
