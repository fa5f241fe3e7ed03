import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";
import { answerClientErrors } from "../process/server.js";

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

export interface Listening {
  port: number;
  /**
   * Sends the request as written: unlike supertest (which goes through `new URL`), the path
   * reaches the server byte for byte, `/./`, `//` and `%2F` included.
   */
  send(method: string, path: string, options?: { headers?: Record<string, string>; body?: string | Buffer }): Promise<RawResponse>;
  close(): Promise<void>;
}

/** The app on 127.0.0.1 and a free port, answering unparsable requests as startServer does. */
export async function listen(app: Express): Promise<Listening> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
    s.once("error", reject);
  });
  answerClientErrors(server);
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    send: (method, path, options = {}) => sendRaw(port, method, path, options),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sendRaw(port: number, method: string, path: string, options: { headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // Node sends a GET's or DELETE's body unframed unless told its length.
    const headers = {
      ...(options.body !== undefined ? { "Content-Length": String(Buffer.byteLength(options.body)) } : {}),
      ...options.headers,
    };
    const req = httpRequest({ host: "127.0.0.1", port, method, path, headers, agent: false }, (res) => {
      // An event stream does not end: its answer is its status and headers.
      if (/^text\/event-stream/.test(res.headers["content-type"] ?? "")) {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: "", json: undefined });
        req.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on("error", reject);
    req.end(options.body);
  });
}
