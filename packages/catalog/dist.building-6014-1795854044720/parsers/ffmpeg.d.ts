import type { Parser } from "../types.js";
/**
 * `ffmpeg -progress pipe:1 -benchmark`: key=value blocks, each ending with `progress=continue`,
 * the last (over the whole run) with `progress=end`, give the frames and the speed; the
 * `bench:` line the wall time, from which the frames per second (-progress's own `fps` is 0
 * for runs under a second).
 */
export declare const ffmpeg: Parser;
