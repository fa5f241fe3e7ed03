import type { Express, Response } from "express";

const serialized = new WeakMap<object, { text: string; bytes?: Buffer }>();

/**
 * Makes `res.json` serialize a frozen answer once. The engine hands out its read views
 * frozen, and the very same objects to every request until the data under them changes
 * (its ReadCache): their JSON is kept beside them. Serializing the list of 50 sessions took a
 * third of that request's time. Anything else (a masked copy, a problem, a fresh view) goes
 * through Express's own res.json. The app sets no `json replacer`, `json spaces` nor
 * `json escape`, so both write the same bytes, with the same headers.
 */
export function serializeFrozenOnce(app: Express): void {
  const json = app.response.json;
  app.response.json = function (this: Response, body?: unknown) {
    if (!body || typeof body !== "object" || !Object.isFrozen(body)) return json.call(this, body);
    let kept = serialized.get(body);
    if (kept === undefined) serialized.set(body, (kept = { text: JSON.stringify(body) }));
    // With a type already set, res.send gives it its charset: the text goes through it as before.
    if (this.get("Content-Type")) return this.send(kept.text);
    // Otherwise the headers res.send would write for the text (JSON, in UTF-8), and its bytes,
    // encoded once: res.send encodes a text of 1000 characters or more again for every answer.
    this.set("Content-Type", "application/json; charset=utf-8");
    return this.send((kept.bytes ??= Buffer.from(kept.text, "utf8")));
  };
}
