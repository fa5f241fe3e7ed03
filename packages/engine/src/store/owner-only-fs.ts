import { chmodSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { NodeFS } from "@electric-sql/pglite/nodefs";

/** Group and world bits: PostgreSQL keeps its data directory to its owner (0700 / 0600). */
const GROUP_AND_WORLD = 0o077;

type EmscriptenModule = Parameters<NodeFS["init"]>[1];
interface NodeOps {
  setattr(node: unknown, attr: { mode?: number }): void;
  mknod(parent: unknown, name: string, mode: number, dev: number): unknown;
}

/**
 * PGlite's NodeFS, keeping every file and directory it writes to its owner. Emscripten's
 * FS.open chmods a file it creates to the mode asked, bypassing the process umask, and
 * FS.writeFile asks 0666: PGlite unpacks its initial database (PG_VERSION, base/, global/,
 * pg_hba.conf, postgresql.conf...) that way, so those files came out world-writable.
 * PostgreSQL itself asks 0600 / 0700 (its files written later were fine). The modes are masked
 * where Emscripten's NODEFS turns them into the host's: a node's creation and its setattr.
 */
export class OwnerOnlyNodeFS extends NodeFS {
  override async init(pg: PGlite, opts: EmscriptenModule): ReturnType<NodeFS["init"]> {
    const { emscriptenOpts } = await super.init(pg, opts);
    const preRun = [
      (mod: EmscriptenModule) => ownerOnly(mod.NODEFS as unknown as { node_ops: NodeOps; stream_ops: Pick<NodeOps, "setattr"> }),
      ...(emscriptenOpts.preRun ?? []),
    ];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } };
  }
}

/** Wraps the module's NODEFS once: its node and stream operations are shared by every node it mounts. */
function ownerOnly(nodefs: { node_ops: NodeOps; stream_ops: Pick<NodeOps, "setattr"> }): void {
  const { mknod, setattr } = nodefs.node_ops;
  const streamSetattr = nodefs.stream_ops.setattr;
  const masked = (attr: { mode?: number }) => (attr.mode === undefined ? attr : { ...attr, mode: attr.mode & ~GROUP_AND_WORLD });
  nodefs.node_ops.mknod = (parent, name, mode, dev) => mknod(parent, name, mode & ~GROUP_AND_WORLD, dev);
  nodefs.node_ops.setattr = (node, attr) => setattr(node, masked(attr));
  nodefs.stream_ops.setattr = (stream, attr) => streamSetattr(stream, masked(attr));
}

/**
 * Takes group and world access away from everything under `dir`: a database an earlier
 * version wrote (0666 files) is repaired when it is next opened. Symbolic links are left as
 * they are (their mode means nothing, and what they point to is not ours to change).
 */
export function removeGroupAndWorldAccess(dir: string): void {
  const visit = (path: string) => {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return;
    if (st.mode & GROUP_AND_WORLD) chmodSync(path, st.mode & 0o7777 & ~GROUP_AND_WORLD);
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
}
