import type { Gate } from "@benchwright/sdk";
import { metricName, ratioText } from "./markdown.js";

/** XML's five escapes, for text and attribute values alike; characters XML 1.0 forbids are dropped. */
function xml(text: string): string {
  return text
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * The gate as JUnit XML, as CI servers read test reports: one test suite, one test case per
 * cell (its class the benchmark and target, its name the metric), a `failure` for each worse
 * cell with its sentence; an inconclusive cell is a passed case whose `system-out` says why
 * (the exit code tells inconclusive apart). Valid against the Jenkins JUnit schema
 * (test/fixtures/junit/ in this package).
 */
export function gateJunit(gate: Gate, timestamp: Date): string {
  const failures = gate.cells.filter((c) => c.verdict === "worse").length;
  const stamp = timestamp.toISOString().replace(/\.\d{3}Z$/, "");
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="benchwright gate" tests="${gate.cells.length}" failures="${failures}" errors="0">`,
    `  <testsuite name="${xml(`benchwright gate${gate.branch ? ` ${gate.branch}` : ""}`)}" tests="${gate.cells.length}" failures="${failures}" errors="0" skipped="0" time="0" timestamp="${stamp}">`,
  ];
  for (const cell of gate.cells) {
    // A plan's cells differ by their params and target label: both in the class, so that each case is its own.
    const params = Object.entries(cell.benchmark.params ?? {}).map(([k, v]) => `${k}=${v}`);
    const classname = xml(
      `${cell.benchmark.tool}.${cell.benchmark.workload}${params.length ? `[${params.join(",")}]` : ""}.${cell.target_label ?? cell.target.service_type}`,
    );
    const name = xml(metricName(cell));
    const detail = xml(`${cell.verdict}: ${ratioText(cell)}. ${cell.sentence}`);
    lines.push(`    <testcase classname="${classname}" name="${name}" time="0">`);
    if (cell.verdict === "worse")
      lines.push(`      <failure message="${xml(`${metricName(cell)} is worse: ${ratioText(cell)}`)}" type="worse">${detail}</failure>`);
    else lines.push(`      <system-out>${detail}</system-out>`);
    lines.push("    </testcase>");
  }
  lines.push("  </testsuite>", "</testsuites>");
  return `${lines.join("\n")}\n`;
}
