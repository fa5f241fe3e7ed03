/** Where a provider configuration or a benchmark definition comes from, as the dashboard says it. */
const SOURCES: Record<string, string> = { builtin: "built in", file: "file", api: "API" };

export function sourceText(source: string | undefined): string {
  return SOURCES[source ?? ""] ?? source ?? "";
}
