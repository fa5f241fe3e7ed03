/**
 * Quotes one word for POSIX shells: single quotes protect everything but the single
 * quote itself, which is closed, escaped and reopened.
 *
 * @example shellQuote("it's") === `'it'\\''s'`
 */
export function shellQuote(word: string): string {
  if (word !== "" && /^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return singleQuoted(word);
}

/** The word in single quotes, even a plain one. */
export function singleQuoted(word: string): string {
  if (word.includes("\0")) throw new Error("A shell word cannot hold a NUL byte");
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Quotes a path for a shell, keeping a leading `~/` meaningful: `~` inside quotes is
 * literal, so it becomes `"$HOME"` followed by the quoted rest.
 */
export function shellPath(path: string): string {
  if (path === "~") return `"$HOME"`;
  if (path.startsWith("~/")) return `"$HOME"/${shellQuote(path.slice(2))}`;
  return shellQuote(path);
}

/** A script run by `bash -c`, whatever the login shell of the user it runs as. */
export function bashC(script: string): string {
  return `bash -c ${shellQuote(script)}`;
}
