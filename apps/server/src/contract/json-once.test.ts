import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { serializeFrozenOnce } from "./json-once.js";

describe("serializeFrozenOnce", () => {
  it("serializes a frozen answer once and sends the bytes res.json sends", async () => {
    let reads = 0;
    const frozen = Object.freeze({
      id: "a",
      get state() {
        reads++;
        return "active";
      },
      list: Object.freeze([1, 2]),
    });
    const plain = express();
    plain.get("/", (_req, res) => res.json(frozen));
    const app = express();
    serializeFrozenOnce(app);
    app.get("/", (_req, res) => res.json(frozen));
    app.get("/fresh", (_req, res) => res.json({ n: reads }));

    const expected = await request(plain).get("/").expect(200);
    reads = 0;
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get("/").expect(200);
      expect(res.text).toBe(expected.text);
      expect(res.headers["content-type"]).toBe(expected.headers["content-type"]);
    }
    expect(reads).toBe(1);
    // Anything not frozen is serialized each time, as before.
    expect((await request(app).get("/fresh").expect(200)).body).toEqual({ n: 1 });
  });

  it("leaves a content type set before alone", async () => {
    const app = express();
    serializeFrozenOnce(app);
    app.get("/", (_req, res) => res.type("application/problem+json").json(Object.freeze({ title: "x" })));
    const res = await request(app).get("/").expect(200);
    expect(res.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(res.text)).toEqual({ title: "x" });
  });
});
