/**
 * A user's tool whose speed and version a test sets through two files in `dir`: each run
 * prints the speed file's number (`speed`, ops/s, higher is better, through the keyvalue
 * parser), and its `scripts.version` prints the version file's content (the machines' fact
 * `tool_version`, read at prepare). Its definition, to drop as `trend.yaml` into a config dir's
 * `benchmarks/`; the tool is `trend`, its workload `steady`.
 */
export declare function trendToolDefinition(dir: string): string;
