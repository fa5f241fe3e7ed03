/**
 * Private keys arrive with their line ends as JSON `\n` escapes (decoded already), as the
 * two characters backslash-n when a client escaped twice, or indented (INI): all mean newlines.
 */
export function normalizePrivateKey(key: string): string {
  let text = key.replace(/\r\n/g, "\n");
  if (!text.includes("\n") && text.includes("\\n")) text = text.replace(/\\n/g, "\n");
  text = text
    .split("\n")
    .map((line) => line.trim())
    .join("\n")
    .trim();
  return text + "\n";
}
