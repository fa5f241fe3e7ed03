import { createHash } from "node:crypto";
// Helpers of the log tests: a producer that writes as a step runner does, and readers.
/** Writes `source` in pieces of the given sizes, each a buffer of its own, waiting when the writer asks. */
export async function writeAll(writer, source, sizes) {
    let at = 0;
    for (const size of sizes) {
        writer.write(Buffer.from(source.subarray(at, at + size)));
        at += size;
        if (!writer.writable)
            await writer.drain();
        // Bytes arrive from the network between events, not in one synchronous burst.
        await new Promise((r) => setImmediate(r));
    }
}
/** Sizes from `min` to `max` that add up to `total`. */
export function randomSizes(total, min, max) {
    const sizes = [];
    for (let left = total; left > 0;) {
        const n = Math.min(left, min + Math.floor(Math.random() ** 3 * (max - min + 1)));
        sizes.push(n);
        left -= n;
    }
    return sizes;
}
export async function bytesOf(stream) {
    const parts = [];
    for await (const chunk of stream)
        parts.push(chunk);
    return Buffer.concat(parts);
}
export async function hashOf(stream) {
    const hash = createHash("sha256");
    for await (const chunk of stream)
        hash.update(chunk);
    return hash.digest("hex");
}
//# sourceMappingURL=log-data.js.map