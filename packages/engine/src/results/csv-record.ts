/** A text that a spreadsheet would run as a formula (OWASP's list: = + - @ tab CR)... */
const FORMULA = /^[=+\-@\t\r]/;
/** ...unless it is a number, which a spreadsheet reads as one. */
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** One RFC 4180 record, CRLF-ended: the metrics export's and the plan report's. */
export function csvLine(values: readonly unknown[]): string {
  return values.map(csvField).join(",") + "\r\n";
}

/**
 * One CSV field: a number as JavaScript writes it, an object as JSON text, nothing as nothing, a text as it is but
 * with a `'` in front when it would start a formula; quoted (quotes doubled) when it holds a
 * comma, a quote or a line end.
 */
function csvField(value: unknown): string {
  let text = value === undefined || value === null ? "" : typeof value === "string" ? value : typeof value === "number" ? String(value) : JSON.stringify(value);
  if (typeof value === "string" && FORMULA.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
