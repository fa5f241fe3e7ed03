import type { Parser } from "../types.js";
/**
 * `openssl speed -mr`, the machine-readable report:
 * - `+H:16:64:...` block sizes, then `+F:<i>:<algorithm>:<bytes/s per size>...` per hash or cipher;
 * - `+F2:<i>:<bits>:<sign/s>:<verify/s>` RSA, `+F3` DSA, `+F4` ECDSA (same fields);
 * - `+F6:<i>:<bits>:<name>:<sign/s>:<verify/s>` EdDSA.
 * Other lines (`+DT`, `+R`: progress; key exchanges) carry no figure we declare.
 */
export declare const openssl: Parser;
