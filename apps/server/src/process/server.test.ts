import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../operations/logger.js";
import { startServer, type RunningServer } from "./server.js";

const REPO_CONFIG = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../config");

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes bytes on a fresh socket and reads until the server closes it: no HTTP client in between. */
function exchange(port: number, bytes: string): Promise<Answer> {
  return new Promise((done, fail) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", fail);
    socket.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head, ...rest] = text.split("\r\n\r\n");
      const [statusLine, ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      done({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
      socket.destroy();
    });
    socket.write(bytes);
  });
}

describe("requests Node's parser refuses before Express", () => {
  let server: RunningServer;
  let port: number;
  let dataDir: string;
  let configDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "bw-data-"));
    configDir = mkdtempSync(join(tmpdir(), "bw-config-"));
    cpSync(REPO_CONFIG, configDir, { recursive: true });
    mkdirSync(join(configDir, "benchmarks"), { recursive: true });
    server = await startServer({ host: "127.0.0.1", port: 0, dataDir, configDir, insecure: false }, silentLogger);
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(configDir, { recursive: true, force: true });
  });

  const expectProblem = (answer: Answer, status: number, code: string) => {
    expect(answer.status).toBe(status);
    expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
    expect(JSON.parse(answer.body)).toMatchObject({
      status,
      code,
      type: expect.any(String),
      title: expect.any(String),
      detail: expect.any(String),
    });
  };

  it("answers a 20 KiB header with a 431 problem", async () => {
    const big = "x".repeat(20 * 1024);
    const answer = await exchange(port, `GET /api/v1/sessions/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: ${big}\r\n\r\n`);
    expectProblem(answer, 431, "header_too_large");
  });

  it.each([
    ["a request line that is not HTTP", "GARBAGE\r\n\r\n"],
    ["an unknown method", "FROB /api/v1/sessions/ HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["a space in the path", "GET /api/v1/ses sions/ HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["a header line without a colon", "GET /api/v1/sessions/ HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n"],
    ["two Content-Length headers that disagree", "POST /api/v1/sessions/ HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}"],
  ])("answers %s with a 400 problem", async (_name, bytes) => {
    expectProblem(await exchange(port, bytes), 400, "validation_failed");
  });

  it("still answers a well-formed request on the same server", async () => {
    const answer = await exchange(port, "GET /api/v1/providers/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    expect(answer.status).toBe(200);
  });
});
