// Records parser fixtures by running the catalog's own run scripts on this machine.
// Usage (after `npm run build`): node scripts/record-fixtures.mjs [tool/workload ...]
// Long workloads are shortened (their duration parameter only) so that recording takes a minute or two.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { loadCatalog, paramEnv } from "../dist/index.js";

const FIXTURES = fileURLToPath(new URL("../src/parsers/fixtures/", import.meta.url));
const SHORTEN = { iperf3: { duration: 2 }, "stress-ng": { duration: 2 } };
const DEFAULT = [
  "sysbench/cpu_10000",
  "sysbench/memory",
  "sysbench/fileio",
  "sysbench/threads",
  "sysbench/mutex",
  "sysbench/memory_read",
  "sysbench/fileio_seqwr",
  "sysbench/fileio_seqrd",
  "fio/randread",
  "fio/randwrite",
  "fio/seqread",
  "fio/seqwrite",
  "fio/randrw",
  "fio/randread_qd1",
  "fio/randwrite_qd1_sync",
  "iperf3/tcp_10_1",
  "iperf3/tcp_10_10",
  "iperf3/udp_10_1_1",
  "stress-ng/cpu",
  "stress-ng/vm",
  "stress-ng/cpu_int64",
  "stress-ng/cpu_float64",
  "stress-ng/cpu_matrixprod",
  "stress-ng/matrix",
  "stress-ng/hash",
  "stress-ng/memcpy",
  "stress-ng/malloc",
  "stress-ng/cache",
  "stress-ng/switch",
  "stress-ng/pipe",
  "stress-ng/fork",
  "redis-benchmark/set",
  "redis-benchmark/get",
  "redis-benchmark/incr",
  "redis-benchmark/lpush",
  "redis-benchmark/lpop",
  "redis-benchmark/mset",
  "pgbench/select_only",
  "pgbench/tpcb_like",
  "7zip/single_thread",
  "7zip/multi_thread",
  "openssl/sha256",
  "openssl/sha512",
  "openssl/aes_256_gcm",
  "openssl/chacha20_poly1305",
  "openssl/rsa2048",
  "openssl/ecdsa_p256",
  "openssl/ed25519",
  "compression/zstd_compress",
  "compression/zstd_decompress",
  "compression/xz_compress",
  "compression/xz_decompress",
  "compression/gzip_compress",
  "compression/pigz_compress",
  "compression/lz4_compress",
  "compression/lz4_decompress",
  "compression/bzip2_compress",
  "compression/brotli_compress",
  "mbw/memcpy",
  "mbw/dumb",
  "mbw/mcblock",
  "dbench/clients_1",
  "dbench/clients_4",
  "sockperf/tcp_latency",
  "sockperf/udp_latency",
  "sockperf/tcp_throughput",
  "sockperf/udp_throughput",
  "ffmpeg/x264_720p",
  "ffmpeg/x264_1080p",
  "ffmpeg/x265_720p",
  "ioping/read_random",
  "ioping/read_sequential",
  "ioping/read_direct",
  "ioping/write_random",
  "john/descrypt",
  "john/md5crypt",
  "john/bcrypt",
  "john/lm",
  "qperf/tcp_lat",
  "qperf/udp_lat",
  "qperf/tcp_bw",
  "qperf/udp_bw",
  "cryptsetup/pbkdf2_sha256",
  "cryptsetup/pbkdf2_sha512",
  "cryptsetup/argon2id",
  "stockfish/single_thread",
  "stockfish/multi_thread",
  "primesieve/single_thread",
  "primesieve/multi_thread",
  "hpcc/single_process",
  "hpcc/all_processes",
  "bonnie/block_io",
  "bonnie/file_ops",
];

const catalog = loadCatalog();
for (const name of process.argv.length > 2 ? process.argv.slice(2) : DEFAULT) {
  const [tool, workload] = name.split("/");
  const script = catalog.runScript(tool, workload, { platform: "debian_12", allowInstall: false });
  const params = catalog.params(tool, workload, SHORTEN[tool]);
  if (params.problems.length) throw new Error(`${name}: ${JSON.stringify(params.problems)}`);
  const cwd = mkdtempSync(join(tmpdir(), "bw-record-"));
  const r = spawnSync("bash", ["-c", script], { cwd, encoding: "utf8", env: { ...process.env, ...paramEnv(params.values) } });
  rmSync(cwd, { recursive: true, force: true });
  if (r.status !== 0) {
    console.error(`${name}: exit ${r.status}\n${r.stderr}`);
    process.exitCode = 1;
    continue;
  }
  mkdirSync(join(FIXTURES, tool), { recursive: true });
  writeFileSync(join(FIXTURES, tool, `${workload}.txt`), r.stdout);
  console.log(`${name}: ${r.stdout.length} bytes, ${catalog.parse(tool, workload, r.stdout).length} metrics`);
}
