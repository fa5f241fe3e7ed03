/**
 * `Ubuntu 22.04` and `ubuntu_22_04` name the same platform: lower-case, and every run of
 * characters other than letters and digits becomes one `_`.
 */
export function normalizePlatform(platform: string): string {
  return platform
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

/**
 * Script keys to try, most specific first, like the ancestor (Benchmarking Suite):
 * `("install", "ubuntu_22_04")` gives `install_ubuntu_22_04`, `install_ubuntu_22`,
 * `install_ubuntu`, `install`.
 */
export function platformCandidates(prefix: string, platform: string): string[] {
  const tokens = normalizePlatform(platform).split("_").filter(Boolean);
  const keys: string[] = [];
  for (let n = tokens.length; n > 0; n--) keys.push(`${prefix}_${tokens.slice(0, n).join("_")}`);
  keys.push(prefix);
  return keys;
}

/** The most specific script for the platform, or undefined when none of the candidates exists. */
export function pickScript(scripts: Record<string, string>, prefix: string, platform: string): { key: string; script: string } | undefined {
  for (const key of platformCandidates(prefix, platform)) {
    const script = scripts[key];
    if (typeof script === "string") return { key, script };
  }
  return undefined;
}
