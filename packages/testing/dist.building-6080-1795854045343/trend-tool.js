/**
 * A user's tool whose speed and version a test sets through two files in `dir`: each run
 * prints the speed file's number (`speed`, ops/s, higher is better, through the keyvalue
 * parser), and its `scripts.version` prints the version file's content (the machines' fact
 * `tool_version`, read at prepare). Its definition, to drop as `trend.yaml` into a config dir's
 * `benchmarks/`; the tool is `trend`, its workload `steady`.
 */
export function trendToolDefinition(dir) {
    return [
        "id: trend",
        "tool_name: Trend",
        "description: Dropped in by a test",
        "parser: keyvalue",
        "metrics:",
        "  speed: {unit: ops/s, better: higher, description: How fast}",
        "timeout: {prepare: 60, run: 60}",
        "scripts:",
        `  version: cat '${dir}/version'`,
        "workloads:",
        "  - id: steady",
        "    workload_name: steady",
        "    workload_description: Dropped in by a test",
        "    categories: [test]",
        "    scripts:",
        `      run: echo "BW_METRIC speed $(cat '${dir}/speed') ops/s"`,
        "",
    ].join("\n");
}
//# sourceMappingURL=trend-tool.js.map