import type { Readable } from "node:stream";
/** Writes `source` in pieces of the given sizes, each a buffer of its own, waiting when the writer asks. */
export declare function writeAll(writer: {
    write(chunk: Buffer): unknown;
    writable: boolean;
    drain(): Promise<void>;
}, source: Buffer, sizes: number[]): Promise<void>;
/** Sizes from `min` to `max` that add up to `total`. */
export declare function randomSizes(total: number, min: number, max: number): number[];
export declare function bytesOf(stream: Readable): Promise<Buffer>;
export declare function hashOf(stream: Readable): Promise<string>;
