/**
 * Reads the Benchmarking Suite's provider `.conf` files (Python configparser): `[section]`,
 * `key = value` or `key: value`, `#`/`;` comments, and indented continuation lines, which
 * is how those files hold a private key.
 */
export function parseIni(text: string): Record<string, Record<string, string>> {
  const sections: Record<string, Record<string, string>> = {};
  let section: Record<string, string> | undefined;
  let lastKey: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*([#;].*)?$/.test(raw)) continue;
    if (/^\s/.test(raw) && section && lastKey !== undefined) {
      section[lastKey] += (section[lastKey] ? "\n" : "") + raw.trim();
      continue;
    }
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header) {
      section = sections[header[1].trim()] ??= {};
      lastKey = undefined;
      continue;
    }
    const pair = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(raw);
    if (!pair || !section) throw new Error(`cannot read line: ${raw.slice(0, 40)}`);
    lastKey = pair[1].trim().toLowerCase();
    section[lastKey] = pair[2].trim();
  }
  return sections;
}
