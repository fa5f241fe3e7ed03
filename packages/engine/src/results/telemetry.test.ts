import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isWholeDisk, parseTelemetry, telemetrySummary } from "./telemetry.js";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("parseTelemetry", () => {
  // /proc lines of a 2-CPU guest whose counters were set so that each interval is known:
  // 200 jiffies a second (2 CPUs at USER_HZ 100), 50 then 100 of them stolen.
  it("reads the steal and the other kinds of CPU time from /proc/stat's deltas", () => {
    const { cpus, samples } = parseTelemetry(fixture("telemetry-steal.log"));
    expect(cpus).toBe(2);
    // Three readings make two samples; the fourth was cut short (the step killed as it wrote).
    expect(samples).toHaveLength(2);
    expect(samples[0]).toEqual({
      t: 1764140001000,
      from: 1764140000000,
      cpu_user: 25,
      cpu_system: 10,
      cpu_iowait: 5,
      cpu_steal: 25,
      cpu_idle: 35,
      run_queue: 2,
      mem_used_bytes: (4028416 - 2900000) * 1024,
      mem_available_bytes: 2900000 * 1024,
      // vda alone: its partition vda1 and the device-mapper dm-0 on it are not counted twice.
      disk_read_bytes_per_s: 2048 * 512,
      disk_write_bytes_per_s: 4096 * 512,
      net_rx_bytes_per_s: 125000,
      net_tx_bytes_per_s: 10000,
    });
    expect(samples[1]).toMatchObject({
      cpu_user: 50,
      cpu_steal: 50,
      cpu_iowait: 0,
      cpu_idle: 0,
      run_queue: 4,
      disk_read_bytes_per_s: 0,
      net_rx_bytes_per_s: 0,
    });
  });

  it("finds no steal on a host that had none (recorded by the sampler on a bare host)", () => {
    const { cpus, samples } = parseTelemetry(fixture("telemetry-idle-host.log"));
    expect(cpus).toBe(2);
    expect(samples.length).toBeGreaterThanOrEqual(3);
    for (const s of samples) {
      expect(s.cpu_steal).toBe(0);
      expect(s.cpu_user + s.cpu_system + s.cpu_iowait + s.cpu_steal + s.cpu_idle).toBeCloseTo(100, 0);
      expect(s.mem_available_bytes).toBeGreaterThan(0);
      expect(s.t).toBeGreaterThan(1.7e12);
    }
    // vda wrote in every interval of that recording.
    expect(samples.every((s) => s.disk_write_bytes_per_s > 0)).toBe(true);
  });

  it("skips what it does not know and gives no sample from one reading", () => {
    expect(parseTelemetry("")).toEqual({ cpus: 0, samples: [] });
    expect(parseTelemetry("P 4\nT 1.5\nC cpu  1 2 3 4 5 6 7 8 0 0\nX what\nL garbage\n").samples).toEqual([]);
    const twice = "T 10\nC cpu  0 0 0 100 0 0 0 0\nT 11\nC cpu  10 0 0 190 0 0 0 0\n";
    expect(parseTelemetry(twice).samples).toMatchObject([{ cpu_user: 10, cpu_idle: 90, run_queue: 0, disk_read_bytes_per_s: 0 }]);
  });
});

describe("isWholeDisk", () => {
  it("keeps disks and leaves out partitions, loops, RAM and mapped devices", () => {
    const all = ["sda", "sda1", "nvme0n1", "nvme0n1p2", "mmcblk0", "mmcblk0p1", "loop0", "dm-0", "zram0", "xvdb"];
    expect(all.filter((d) => isWholeDisk(d, all))).toEqual(["sda", "nvme0n1", "mmcblk0", "xvdb"]);
  });
});

describe("telemetrySummary", () => {
  it("summarises steal, iowait, busy time and the run queue", () => {
    const metrics = telemetrySummary(parseTelemetry(fixture("telemetry-steal.log")).samples);
    const byName = Object.fromEntries(metrics.map((m) => [m.name, m]));
    expect(byName.cpu_steal_mean.value).toBe(37.5);
    expect(byName.cpu_steal_max.value).toBe(50);
    expect(byName.cpu_iowait_mean.value).toBe(2.5);
    expect(byName.cpu_iowait_max.value).toBe(5);
    expect(byName.cpu_busy_mean.value).toBe(42.5);
    expect(byName.run_queue_mean.value).toBe(3);
    expect(byName.run_queue_max.value).toBe(4);
    expect(byName.cpu_steal_mean.unit).toBe("%");
    expect(telemetrySummary([])).toEqual([]);
  });
});
