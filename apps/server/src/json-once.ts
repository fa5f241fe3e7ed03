import type { Express, Response } from "express";

const serialized = new WeakMap<object, string>();

/**
 * Makes `res.json` serialize a frozen answer once. The engine hands out its read views
 * frozen, and the very same objects to every request until the data under them changes
 * (its ReadCache): their JSON is kept beside them. Serializing the list of 50 sessions took a
 * third of that request's time. Anything else (a masked copy, a problem, a fresh view) goes
 * through Express's own res.json. The app sets no `json replacer`, `json spaces` nor
 * `json escape`, so both write the same bytes.
 */
export function serializeFrozenOnce(app: Express): void {
  const json = app.response.json;
  app.response.json = function (this: Response, body?: unknown) {
    if (!body || typeof body !== "object" || !Object.isFrozen(body)) return json.call(this, body);
    let text = serialized.get(body);
    if (text === undefined) serialized.set(body, (text = JSON.stringify(body)));
    if (!this.get("Content-Type")) this.set("Content-Type", "application/json");
    return this.send(text);
  };
}
