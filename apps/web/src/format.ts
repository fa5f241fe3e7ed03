/** The first block of a UUID: enough to tell executions apart on a screen. */
export function shortId(id: string): string {
  return id.split("-")[0] ?? id;
}

/** A `sha256:` digest's first 12 hex digits: enough to tell versions apart on a screen. */
export function shortDigest(digest: string): string {
  return digest.replace(/^sha256:/, "").slice(0, 12);
}

export function bytes(n: number | undefined): string {
  if (n === undefined) return "";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number.isInteger(v) ? v : v.toFixed(1)} ${units[i]}`;
}

/** Four significant digits, without an exponent for everyday magnitudes. */
export function figure(n: number): string {
  if (n === 0 || !Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  if (abs >= 1e-3 && abs < 1e9) return String(Number(n.toPrecision(4)));
  return n.toPrecision(4);
}

/** `{threads: "2"}` as `threads=2`; empty for none. */
export function tagsText(tags: Record<string, unknown> | undefined): string {
  return Object.entries(tags ?? {})
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(", ");
}

/** Four significant digits with no trailing zeros, as an amount of money is read: 0.000304, not 0.0003040. */
export function amount(n: number): string {
  return Number.isFinite(n) ? String(Number(n.toPrecision(4))) : String(n);
}
