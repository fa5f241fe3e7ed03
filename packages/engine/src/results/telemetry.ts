import type { SAMPLE_FIELDS, TelemetryFigure, TelemetrySample } from "../model/telemetry.js";

/** One reading of the counters, as the sampler (runner/telemetry-sampler.ts) wrote it. */
interface Snapshot {
  t: number;
  /** user nice system idle iowait irq softirq steal, in jiffies since boot. */
  cpu: number[];
  running?: number;
  memTotal?: number;
  memAvailable?: number;
  /** Sectors read and written, per block device. */
  disks: Map<string, [number, number]>;
  /** Bytes received and sent, per interface. */
  nets: Map<string, [number, number]>;
}

/** What a sampler's output says: its machine's CPU count and the samples between its readings. */
export interface ParsedTelemetry {
  cpus: number;
  samples: TelemetrySample[];
}

/** Devices that are not disks of their own: their I/O is counted on a disk already, or is memory. */
const NOT_A_DISK = /^(loop|ram|zram|sr|fd|dm-|md|nbd)\d/;
const SECTOR_BYTES = 512;

/**
 * The samples in a sampler's output: each from two readings in a row, so the first reading
 * gives none. A reading cut short (the step killed as it wrote) is dropped, and so is a line
 * the parser does not know: a host's odd line never fails a run.
 */
export function parseTelemetry(text: string): ParsedTelemetry {
  let cpus = 0;
  const snapshots: Snapshot[] = [];
  let current: Snapshot | undefined;
  for (const line of text.split("\n")) {
    const kind = line.slice(0, 2);
    const rest = line.slice(2);
    if (kind === "P ") cpus = Number.parseInt(rest, 10) || cpus;
    else if (kind === "T ") {
      const t = Number(rest) * 1000;
      current = Number.isFinite(t) ? { t, cpu: [], disks: new Map(), nets: new Map() } : undefined;
      if (current) snapshots.push(current);
    } else if (current) readLine(current, kind, rest);
  }
  const complete = snapshots.filter((s) => s.cpu.length >= 8);
  const samples: TelemetrySample[] = [];
  for (let i = 1; i < complete.length; i++) {
    const sample = sampleBetween(complete[i - 1], complete[i]);
    if (sample) samples.push(sample);
  }
  return { cpus, samples };
}

function readLine(s: Snapshot, kind: string, rest: string): void {
  const fields = rest.trim().split(/\s+/);
  if (kind === "C " && fields[0] === "cpu") {
    // Guest time is counted in user already; the first eight are the whole.
    s.cpu = fields.slice(1, 9).map(Number);
    if (s.cpu.some((n) => !Number.isFinite(n))) s.cpu = [];
  } else if (kind === "L ") {
    const running = Number.parseInt(fields[3]?.split("/")[0] ?? "", 10);
    if (Number.isFinite(running)) s.running = running;
  } else if (kind === "M ") {
    const kb = Number(fields[1]) * 1024;
    if (fields[0] === "MemTotal:") s.memTotal = kb;
    else if (fields[0] === "MemAvailable:") s.memAvailable = kb;
  } else if (kind === "D " && fields.length >= 10) {
    const read = Number(fields[5]);
    const written = Number(fields[9]);
    if (Number.isFinite(read) && Number.isFinite(written)) s.disks.set(fields[2], [read, written]);
  } else if (kind === "N ") {
    // `eth0: 123 ...`, or `eth0:123 ...` once the counter is wide.
    const colon = rest.indexOf(":");
    if (colon < 0) return;
    const counters = rest
      .slice(colon + 1)
      .trim()
      .split(/\s+/)
      .map(Number);
    if (counters.length >= 9 && Number.isFinite(counters[0]) && Number.isFinite(counters[8]))
      s.nets.set(rest.slice(0, colon).trim(), [counters[0], counters[8]]);
  }
}

function sampleBetween(a: Snapshot, b: Snapshot): TelemetrySample | undefined {
  const seconds = (b.t - a.t) / 1000;
  if (!(seconds > 0)) return undefined;
  const d = b.cpu.map((v, i) => Math.max(0, v - a.cpu[i]));
  const total = d.reduce((x, y) => x + y, 0);
  const pct = (n: number) => (total > 0 ? round((100 * n) / total, 2) : 0);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = d;
  const rate = (before: Map<string, [number, number]>, after: Map<string, [number, number]>, keep: (name: string) => boolean, scale: number) => {
    let first = 0;
    let second = 0;
    for (const [name, [x, y]] of after) {
      const was = before.get(name);
      // A device that came or went, or a counter that wrapped, says nothing about this interval.
      if (!was || !keep(name) || x < was[0] || y < was[1]) continue;
      first += x - was[0];
      second += y - was[1];
    }
    return [round((first * scale) / seconds, 0), round((second * scale) / seconds, 0)];
  };
  const names = [...b.disks.keys()];
  const [diskRead, diskWrite] = rate(a.disks, b.disks, (name) => isWholeDisk(name, names), SECTOR_BYTES);
  const [rx, tx] = rate(a.nets, b.nets, (name) => name !== "lo", 1);
  const memTotal = b.memTotal ?? 0;
  const memAvailable = b.memAvailable ?? 0;
  return {
    t: Math.round(b.t),
    // The first sample's `from` is the sampler's first reading, as the step began: where a chart's time starts.
    from: Math.round(a.t),
    cpu_user: pct(user + nice),
    cpu_system: pct(system + irq + softirq),
    cpu_iowait: pct(iowait),
    cpu_steal: pct(steal),
    cpu_idle: pct(idle),
    // The sampler itself is running as it reads /proc/loadavg.
    run_queue: Math.max(0, (b.running ?? 1) - 1),
    mem_used_bytes: Math.max(0, memTotal - memAvailable),
    mem_available_bytes: memAvailable,
    disk_read_bytes_per_s: diskRead,
    disk_write_bytes_per_s: diskWrite,
    net_rx_bytes_per_s: rx,
    net_tx_bytes_per_s: tx,
  };
}

/**
 * A disk counted once: not a loop, RAM, optical, device-mapper or RAID device (their I/O
 * lands on a disk too), nor a partition of a listed disk (`sda1` of `sda`, `nvme0n1p1` of
 * `nvme0n1`, `mmcblk0p1` of `mmcblk0`).
 */
export function isWholeDisk(name: string, all: readonly string[]): boolean {
  if (NOT_A_DISK.test(name)) return false;
  return !all.some((other) => other !== name && name.startsWith(other) && /^p?\d+$/.test(name.slice(other.length)));
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** One machine's samples summarised: what its CPU lost to others and waited for, and how crowded it was. */
export function telemetrySummary(samples: readonly TelemetrySample[]): TelemetryFigure[] {
  if (samples.length === 0) return [];
  const of = (field: (typeof SAMPLE_FIELDS)[number]) => samples.map((s) => s[field]);
  const mean = (xs: number[]) => round(xs.reduce((a, b) => a + b, 0) / xs.length, 2);
  const max = (xs: number[]) => Math.max(...xs);
  const busy = samples.map((s) => round(100 - s.cpu_idle - s.cpu_iowait - s.cpu_steal, 2));
  return [
    { name: "cpu_steal_mean", value: mean(of("cpu_steal")), unit: "%" },
    { name: "cpu_steal_max", value: max(of("cpu_steal")), unit: "%" },
    { name: "cpu_iowait_mean", value: mean(of("cpu_iowait")), unit: "%" },
    { name: "cpu_iowait_max", value: max(of("cpu_iowait")), unit: "%" },
    { name: "cpu_busy_mean", value: mean(busy), unit: "%" },
    { name: "run_queue_mean", value: mean(of("run_queue")), unit: "tasks" },
    { name: "run_queue_max", value: max(of("run_queue")), unit: "tasks" },
  ];
}
