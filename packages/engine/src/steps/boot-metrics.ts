import type { StoredMetric } from "../model/metrics.js";
import type { Machine } from "../providers/provider.js";

/** Names of the figures a prepare records of the cloud machines it made. */
const BOOT_METRICS = ["machine_create_seconds", "ssh_ready_seconds"] as const;

/**
 * How long each machine the provider made for this step took to boot, as the prepare's
 * metrics: from the API call to the machine running, and to its SSH answering. Machines that
 * existed already (made by an earlier prepare of the session) have no boot to report.
 */
export function bootMetrics(machines: readonly Machine[]): StoredMetric[] {
  return machines.flatMap(({ id, boot }) => {
    if (!boot) return [];
    const figure = (name: (typeof BOOT_METRICS)[number], value: number): StoredMetric => ({
      name,
      value,
      unit: "s",
      better: "lower",
      tags: { machine: id },
      vm: id,
    });
    return [figure("machine_create_seconds", boot.createSeconds), figure("ssh_ready_seconds", boot.sshReadySeconds)];
  });
}
