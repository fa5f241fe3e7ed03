/**
 * One sample of a machine while a run step ran: the CPU's time by kind over the interval
 * before it (percent of all its CPUs' time, as mpstat's "all" line), the run queue at that
 * instant, memory, and disk and network throughput over the interval.
 */
export interface TelemetrySample {
  /** When it was taken (epoch ms, the host's clock). */
  t: number;
  /** When the reading before it was taken: the start of the interval it covers (absent from samples stored before it was kept). */
  from?: number;
  cpu_user: number;
  cpu_system: number;
  cpu_iowait: number;
  /** Time the hypervisor gave another guest while this one had work (a noisy neighbour). */
  cpu_steal: number;
  cpu_idle: number;
  /** Tasks runnable at that instant (running or waiting for a CPU), the sampler left out. */
  run_queue: number;
  mem_used_bytes: number;
  mem_available_bytes: number;
  disk_read_bytes_per_s: number;
  disk_write_bytes_per_s: number;
  net_rx_bytes_per_s: number;
  net_tx_bytes_per_s: number;
}

/** The figures of a sample, in the order of the CSV's columns. */
export const SAMPLE_FIELDS = [
  "cpu_user",
  "cpu_system",
  "cpu_iowait",
  "cpu_steal",
  "cpu_idle",
  "run_queue",
  "mem_used_bytes",
  "mem_available_bytes",
  "disk_read_bytes_per_s",
  "disk_write_bytes_per_s",
  "net_rx_bytes_per_s",
  "net_tx_bytes_per_s",
] as const satisfies readonly (keyof TelemetrySample)[];

/** One machine's samples during one part of a run step (a role, a repetition). */
export interface TelemetryTrack {
  machine_id: string;
  role: string | null;
  repetition: number;
  /** How many CPUs the machine has (what a run queue is measured against). */
  cpus: number;
  samples: TelemetrySample[];
}

/** One figure of a machine's samples summarised (cpu_steal_mean, run_queue_max...). */
export interface TelemetryFigure {
  name: string;
  value: number;
  unit: string;
}
