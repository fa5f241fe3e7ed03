// What each stage a step's output goes through on the server costs, per GiB, beside what the
// transport itself costs to bring it (issue 36: output at the transport's speed). Each stage runs
// in this process on the same bytes (1 KiB lines of x, as log-memory.mjs's step prints), in
// 32 KiB chunks as SSH delivers them; its cost is this process's CPU time (user + system),
// which moves less than wall time on a loaded machine.
// - reference: a warm ssh2 exec of the generator from the private sshd, its output dropped:
//   the CPU this process spends receiving a GiB over SSH.
// - secret masking: maskingSecrets over the session's scrubber (the sshd's private key, as an
//   existing-vm session holds it), and over a 4096-bit RSA key's (hundreds of forms).
// - log file: the file log store's writer (the embedded default).
// - at the step's end: the 8 MiB tail the parser reads, and the tool's parser on it, once per
//   step whatever the output's size (no target: a fixed cost, not one per GiB).
// Target: each stage per GiB costs no more than the transport's (it keeps up with it).
// Making the chunks is measured alone and taken off each stage's figure.
//
// Usage: node bench/output-stages.mjs [--mib=256]
import { generateKeyPairSync, randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { loadCatalog } from "@benchwright/catalog";
import { FileLogStore, maskingSecrets, SSH_CIPHERS, Scrubber } from "@benchwright/engine";
import { figure } from "./harness/figures.mjs";
import { benchSshd, ssh2Connection } from "./harness/hosts.mjs";
import { MiB } from "./harness/memory.mjs";
import { flags, main, tempDir } from "./harness/script.mjs";

const opts = flags({ mib: 256 });
const size = opts.mib * MiB;
const GiB = 1024 * MiB;
const CHUNK = 32 * 1024;
const PARSE_WINDOW = 8 * MiB;
const generator = `{ yes "$(head -c 1023 /dev/zero | tr '\\0' x)" || true; } | head -c ${size}`;

/** CPU seconds (user + system) and wall seconds `fn` took in this process. */
async function cost(fn) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1e6, wall: (performance.now() - started) / 1000 };
}

/** Feeds `size` bytes of the generator's output to `write` in CHUNK-sized fresh buffers. */
function feed(write) {
  const line = Buffer.alloc(1024, "x");
  line[1023] = 10;
  const chunk = Buffer.concat(Array.from({ length: CHUNK / 1024 }, () => line));
  for (let sent = 0; sent < size; sent += CHUNK) write(Buffer.from(chunk));
}

/** A log writer that only counts: the stage before it is measured alone. */
function countingWriter() {
  return {
    bytes: 0,
    writable: true,
    write(chunk) {
      this.bytes += chunk.length;
    },
    drain: async () => {},
    tail: () => "",
    flush: async () => {},
    truncate: async () => {},
    close: async () => {},
  };
}

await main(async (defer) => {
  const sshd = await benchSshd(defer);
  const ssh = await ssh2Connection(sshd);
  defer(() => ssh.end());

  const perGiB = (c) => (c.cpu * GiB) / size;
  // Making the chunks costs too: that is taken off each stage's figure (the cheapest of three:
  // the first, cold, cost more than a masking stage and left it at 0).
  const feedings = [];
  for (let i = 0; i < 3; i++) feedings.push(await cost(() => feed(() => {})));
  const feeding = feedings.reduce((a, b) => (b.cpu < a.cpu ? b : a));
  const stage = async (fn) => {
    const c = await cost(fn);
    return { cpu: Math.max(0, c.cpu - feeding.cpu), wall: Math.max(1e-9, c.wall - feeding.wall) };
  };
  const transport = await cost(async () => {
    const code = await ssh.exec(generator, new Writable({ write: (_c, _e, done) => done() }));
    if (code !== 0) throw new Error(`the generator exited ${code}`);
  });
  console.log(`transport (warm ssh2 exec, output dropped): ${perGiB(transport).toFixed(2)} CPU s/GiB, ${(opts.mib / transport.wall).toFixed(0)} MiB/s wall`);
  // The engine offers AES-CTR first (transport/ssh-ciphers.ts): what that saves against ssh2's defaults.
  const engineSsh = await ssh2Connection(sshd, { algorithms: { cipher: [...SSH_CIPHERS] } });
  defer(() => engineSsh.end());
  const engineTransport = await cost(async () => {
    const code = await engineSsh.exec(generator, new Writable({ write: (_c, _e, done) => done() }));
    if (code !== 0) throw new Error(`the generator exited ${code}`);
  });
  console.log(
    `transport (the engine's ciphers, output dropped): ${perGiB(engineTransport).toFixed(2)} CPU s/GiB, ${(opts.mib / engineTransport.wall).toFixed(0)} MiB/s wall`,
  );
  figure({
    measure: "transport per GiB: the engine's ciphers (AES-CTR first)",
    now: perGiB(engineTransport),
    ref: perGiB(transport),
    unit: "CPU s",
    refLabel: "ssh2's defaults (AES-GCM first)",
    digits: 2,
  });
  const row = (measure, c) =>
    figure({
      measure: `output stage per GiB: ${measure}`,
      now: perGiB(c),
      ref: perGiB(transport),
      unit: "CPU s",
      refLabel: "receiving it over SSH (warm ssh2 exec)",
      target: "<= 1x the transport",
      ok: (r) => r <= 1,
      digits: 2,
    });

  const { privateKey: rsa4096 } = generateKeyPairSync("rsa", {
    modulusLength: 4096,
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
    publicKeyEncoding: { type: "spki", format: "pem" },
  });
  for (const [label, scrubber] of [
    ["the session's key", new Scrubber().add(sshd.privateKey)],
    ["a 4096-bit RSA key", new Scrubber().add(rsa4096)],
  ]) {
    const masking = maskingSecrets(countingWriter(), scrubber);
    const c = await stage(() => feed((chunk) => masking.write(chunk)));
    console.log(`secret masking, ${label} (${scrubber.forms.length} forms): ${perGiB(c).toFixed(2)} CPU s/GiB, ${(opts.mib / c.wall).toFixed(0)} MiB/s wall`);
    row(`secret masking, ${label} (${scrubber.forms.length} forms)`, c);
  }

  const store = new FileLogStore(tempDir(defer, "logs"));
  const key = { execution_id: randomUUID(), step: "run", attempt: 1 };
  const log = await store.open(key, `${tempDir(defer, "log")}/run.log`);
  // A writer that wrote off the event loop would still owe writes: its cost includes them.
  const writing = await stage(async () => {
    feed((chunk) => log.write(chunk));
    await log.flush();
  });
  console.log(`log file: ${perGiB(writing).toFixed(2)} CPU s/GiB, ${(opts.mib / writing.wall).toFixed(0)} MiB/s wall`);
  row("the log file's writer", writing);

  // At the step's end, once whatever the output's size: its tail read back, and parsed.
  log.write(Buffer.from("\nBW_METRIC idle_seconds 0 s\n"));
  const catalog = loadCatalog();
  let metrics = [];
  const end = await cost(() => {
    const output = log.tail(PARSE_WINDOW);
    metrics = catalog.parse("idle", "idle0", output);
  });
  await log.close();
  if (!metrics.length) throw new Error("the parser found no metric in the tail");
  console.log(`at the step's end: ${(end.cpu * 1000).toFixed(0)} ms CPU for the 8 MiB tail and its parsing (once per step)`);
  figure({
    measure: "output stage at a step's end: 8 MiB tail read and parsed",
    now: end.cpu * 1000,
    ref: ((perGiB(transport) * PARSE_WINDOW) / GiB) * 1000,
    unit: "CPU ms",
    refLabel: "receiving 8 MiB over SSH",
  });
});
