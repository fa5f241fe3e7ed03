import { push, toNumber } from "./util.js";
const AVR = /^Avr:\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+\|\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$/m;
const TOT = /^Tot:\s+(\d+)\s+(\d+)\s+(\d+)\s*$/m;
const sevenZip = (output) => {
  const avr = AVR.exec(output);
  const tot = TOT.exec(output);
  if (!avr || !tot) return [];
  const out = [];
  push(out, "compress_speed", toNumber(avr[1]), "KiB/s");
  push(out, "compress_rating", toNumber(avr[4]), "MIPS");
  push(out, "decompress_speed", toNumber(avr[5]), "KiB/s");
  push(out, "decompress_rating", toNumber(avr[8]), "MIPS");
  push(out, "cpu_usage", toNumber(tot[1]), "%");
  push(out, "total_rating", toNumber(tot[3]), "MIPS");
  return out;
};
export {
  sevenZip
};
//# sourceMappingURL=7zip.js.map
