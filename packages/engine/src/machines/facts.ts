import type { Transport } from "../transport/transport.js";

export interface MachineFacts {
  cpu_model?: string;
  /** The CPU's microcode revision (`0x1000065`), from the first `microcode` line of /proc/cpuinfo. */
  microcode?: string;
  cpu_count?: number;
  memory_bytes?: number;
  kernel?: string;
  os_release?: string;
  /** The benchmark tool's version as installed, read at the end of a successful prepare. */
  tool_version?: string;
  /** `<ID>_<VERSION_ID>` from os-release, dots as underscores: `debian_12`, `ubuntu_22_04`. */
  platform?: string;
  /** What it was made from: a cloud's image id, else its OS release (recorded at prepare, see step-work.ts). */
  image?: string;
  /** A cloud's machine type and zone. */
  instance_type?: string;
  zone?: string;
}

// One round trip; each line is `key=value` so that a missing tool only loses its own line.
const FACTS_SCRIPT = [
  `echo "cpu_model=$(grep -m1 -E '^(model name|Model|cpu model)' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"`,
  `echo "microcode=$(grep -m1 '^microcode' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"`,
  `echo "cpu_count=$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN)"`,
  `echo "memory_kib=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo 2>/dev/null)"`,
  `echo "kernel=$(uname -r)"`,
  `if [ -r /etc/os-release ]; then . /etc/os-release; echo "os_release=$PRETTY_NAME"; echo "os_id=$ID"; echo "os_version=$VERSION_ID"; fi`,
].join("; ");

export async function readMachineFacts(transport: Transport): Promise<MachineFacts> {
  const { stdout } = await transport.exec(FACTS_SCRIPT);
  return parseFacts(stdout);
}

export function parseFacts(text: string): MachineFacts {
  const kv = Object.fromEntries(
    text.split("\n").map((line) => {
      const i = line.indexOf("=");
      return i < 0 ? [line, ""] : [line.slice(0, i).trim(), line.slice(i + 1).trim()];
    }),
  );
  const facts: MachineFacts = {};
  if (kv.cpu_model) facts.cpu_model = kv.cpu_model;
  if (kv.microcode) facts.microcode = kv.microcode;
  if (/^\d+$/.test(kv.cpu_count ?? "")) facts.cpu_count = Number(kv.cpu_count);
  if (/^\d+$/.test(kv.memory_kib ?? "")) facts.memory_bytes = Number(kv.memory_kib) * 1024;
  if (kv.kernel) facts.kernel = kv.kernel;
  if (kv.os_release) facts.os_release = kv.os_release;
  if (kv.os_id) facts.platform = [kv.os_id, ...(kv.os_version ?? "").split(".").filter(Boolean)].join("_").toLowerCase();
  return facts;
}
