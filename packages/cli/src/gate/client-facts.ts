import { readFileSync } from "node:fs";
import { cpus, release } from "node:os";
import type { IngestCreate } from "@benchwright/sdk";

/** The facts of the machine this runs on, which an ingest's points keep (as a run's keep its machines'). */
export function clientFacts(): NonNullable<IngestCreate["facts"]> {
  const facts: NonNullable<IngestCreate["facts"]> = { kernel: release() };
  const cpu = cpus()[0]?.model?.trim();
  if (cpu) facts.cpu_model = cpu;
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(readFileSync("/etc/os-release", "utf8"))?.[1];
    if (pretty) facts.os_release = pretty;
  } catch {
    // Not Linux, or no os-release: the point goes without it.
  }
  return facts;
}
