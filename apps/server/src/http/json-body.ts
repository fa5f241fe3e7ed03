import express, { type RequestHandler } from "express";
import { BenchwrightError } from "@benchwright/engine";

/**
 * Parses a JSON request body, and refuses at once what no later step could store or read:
 * - a body that its Content-Encoding says is compressed and is not (zlib's error said 500);
 * - a string, or a key, that holds NUL or half a UTF-16 surrogate pair. Both are valid JSON
 *   (`"\u0000"`, `"\udfff"`), but PostgreSQL's text (and PGlite's) can hold neither, and a
 *   lone surrogate is no Unicode text at all: it cannot be written as UTF-8 to a file, a log
 *   or a host. Refused here, where the body is read, every operation is covered, and nothing
 *   has been changed yet.
 */
export function jsonBody(options: { limit: string }): RequestHandler {
  const parse = express.json({ limit: options.limit, type: "application/json" });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (err) return next(unreadable(err, req.headers["content-encoding"]));
      const errors = unstorableStrings(req.body, "/body");
      if (errors.length === 0) return next();
      next(new BenchwrightError("validation_failed", errors.map((e) => `${e.path} ${e.message}`).join("; "), { errors }));
    });
}

/**
 * The parser's own errors keep their meaning (the error handler maps them: malformed JSON, too
 * large, an unsupported encoding or charset); any other 400 of its is a body that could not be
 * read as the request described it.
 */
function unreadable(err: unknown, encoding: string | undefined): unknown {
  const e = err as { status?: number; type?: string };
  if (e.status !== 400 || e.type === "entity.parse.failed") return err;
  const as = encoding && encoding.toLowerCase() !== "identity" ? ` as ${encoding} (its Content-Encoding)` : "";
  return new BenchwrightError("bad_json", `The request body could not be read${as}`, {}, { cause: err });
}

/** A body with thousands of such strings is answered with the first few. */
const MAX_REPORTED = 20;

/** A value met in the walk, with how it was reached: its path is written only when it is reported. */
interface Visit {
  value: unknown;
  parent?: Visit;
  token?: string;
  /** The key it is the value of, in an object. */
  key?: string;
}

/**
 * Where a JSON value holds a string or a key that cannot be stored as text, each as a JSON
 * Pointer. A loop over a stack, not recursion: a body may nest a hundred thousand arrays deep.
 */
export function unstorableStrings(value: unknown, at: string): Array<{ path: string; message: string }> {
  const found: Array<{ path: string; message: string }> = [];
  const pathOf = (v: Visit): string => {
    const tokens: string[] = [];
    for (let x: Visit | undefined = v; x?.token !== undefined; x = x.parent) tokens.push(x.token);
    return [at, ...tokens.reverse()].join("/");
  };
  const stack: Visit[] = [{ value }];
  while (stack.length > 0 && found.length < MAX_REPORTED) {
    const visit = stack.pop()!;
    const v = visit.value;
    const keyFlaw = visit.key === undefined ? undefined : flawOf(visit.key);
    if (keyFlaw) found.push({ path: pathOf(visit), message: `is a name that must not contain ${keyFlaw}` });
    if (typeof v === "string") {
      const flaw = flawOf(v);
      if (flaw) found.push({ path: pathOf(visit), message: `must not contain ${flaw}` });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], parent: visit, token: String(i) });
    } else if (v && typeof v === "object") {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        stack.push({ value: (v as Record<string, unknown>)[key], parent: visit, token: pointerToken(key), key });
      }
    }
  }
  return found.slice(0, MAX_REPORTED);
}

// Without the u flag, a class matches UTF-16 code units: a high half not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNPRINTABLE = new RegExp(`\\u0000|${LONE_SURROGATE.source}`, "g");

function flawOf(text: string): string | undefined {
  if (text.includes("\u0000")) return "a NUL character (\\u0000)";
  const lone = LONE_SURROGATE.exec(text);
  if (lone) return `a lone UTF-16 surrogate (${escaped(lone[0])})`;
  return undefined;
}

/** A key as one token of a JSON Pointer (RFC 6901), with what it cannot hold written as its JSON escape. */
function pointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1").replace(UNPRINTABLE, escaped);
}

function escaped(unit: string): string {
  return `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
