/** `seconds=0.5 threads=4`: the params that tell one run of a workload from another; empty for none. */
export function paramsText(params: Record<string, unknown> | undefined): string {
  return Object.entries(params ?? {})
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
}

/** `idle/idle5 seconds=0.5`: a benchmark as it ran, its params after its tool and workload. */
export function benchmarkText(tool: string, workload: string, params: Record<string, unknown> | undefined): string {
  return [`${tool}/${workload}`, paramsText(params)].filter(Boolean).join(" ");
}
