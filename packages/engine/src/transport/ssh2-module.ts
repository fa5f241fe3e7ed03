/** ssh2's exports. It is CommonJS: they are its default export (`utils` has no named one). */
type Ssh2 = typeof import("ssh2");

let loading: Promise<Ssh2> | undefined;

/**
 * ssh2, loaded the first time a session needs it. Loading it costs the process 13 MiB of
 * resident memory (its WebAssembly Poly1305 takes a 16 MiB heap at load), which a server
 * whose sessions run on `local`, or that only answers reads, should not pay.
 */
export function loadSsh2(): Promise<Ssh2> {
  return (loading ??= import("ssh2").then((m) => m.default));
}
