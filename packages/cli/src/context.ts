import { createClient, type BenchwrightClient } from "@benchwright/sdk";

export const DEFAULT_URL = "http://127.0.0.1:5000";

/** The options every command that talks to a server takes. */
export interface GlobalOptions {
  url: string;
  token?: string;
  json?: boolean;
}

export interface Context {
  bw: BenchwrightClient;
  url: string;
  json: boolean;
}

export function contextOf(options: GlobalOptions): Context {
  return {
    bw: createClient({ baseUrl: options.url, token: options.token || undefined }),
    url: options.url,
    json: options.json ?? false,
  };
}

/** One JSON document on stdout: what `--json` promises scripts. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Notes for the person at the terminal, away from the result on stdout. */
export function note(text: string): void {
  process.stderr.write(`${text}\n`);
}
