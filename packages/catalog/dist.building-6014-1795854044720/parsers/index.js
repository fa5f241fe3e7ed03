import { sevenZip } from "./7zip.js";
import { dbench } from "./dbench.js";
import { ffmpeg } from "./ffmpeg.js";
import { fio } from "./fio.js";
import { iperf } from "./iperf.js";
import { iperf3 } from "./iperf3.js";
import { keyvalue } from "./keyvalue.js";
import { mbw } from "./mbw.js";
import { openssl } from "./openssl.js";
import { pgbench } from "./pgbench.js";
import { redisBenchmark } from "./redis-benchmark.js";
import { sockperf } from "./sockperf.js";
import { stressNg } from "./stress-ng.js";
import { sysbench } from "./sysbench.js";
import { wrk } from "./wrk.js";
const parsers = Object.freeze({
  keyvalue,
  sysbench,
  fio,
  iperf,
  iperf3,
  "stress-ng": stressNg,
  "redis-benchmark": redisBenchmark,
  pgbench,
  "7zip": sevenZip,
  openssl,
  mbw,
  dbench,
  sockperf,
  ffmpeg,
  wrk
});
export {
  parsers
};
//# sourceMappingURL=index.js.map
