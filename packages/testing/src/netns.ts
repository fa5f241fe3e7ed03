import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A network namespace of its own, reached from this host over a veth pair. */
export interface NetNamespace {
  /** The namespace's name (`ip netns exec <name> …`). */
  name: string;
  /** Its end of the veth pair: where a server started in it listens and this host reaches it. */
  address: string;
  /** Deletes the namespace (its end of the pair with it, and so the pair). */
  remove(): Promise<void>;
}

let next = 0;

/**
 * Makes a network namespace with a veth pair to this host: a host of its own on the network
 * (its own interfaces, loopback and ports), as a pool of existing machines is. The pair's /30 is
 * taken from 10.231.0.0/16 by a counter and the process id, so that test files beside one
 * another do not collide. Needs root and `ip` (iproute2).
 */
export async function createNetNamespace(): Promise<NetNamespace> {
  const tag = randomBytes(3).toString("hex");
  const name = `bw-${tag}`;
  const slot = ((process.pid % 256) * 64 + (next++ % 64)) % 16_384;
  const [a, b] = [Math.floor(slot / 64), (slot % 64) * 4];
  const hostSide = `10.231.${a}.${b + 1}`;
  const address = `10.231.${a}.${b + 2}`;
  const [outer, inner] = [`bwh${tag}`, `bwn${tag}`];
  const ip = (...args: string[]) => run("ip", args);
  try {
    await ip("netns", "add", name);
    await ip("link", "add", outer, "type", "veth", "peer", "name", inner);
    await ip("link", "set", inner, "netns", name);
    await ip("addr", "add", `${hostSide}/30`, "dev", outer);
    await ip("link", "set", outer, "up");
    await ip("netns", "exec", name, "ip", "addr", "add", `${address}/30`, "dev", inner);
    await ip("netns", "exec", name, "ip", "link", "set", inner, "up");
    await ip("netns", "exec", name, "ip", "link", "set", "lo", "up");
  } catch (e) {
    await ip("netns", "del", name).catch(() => undefined);
    await ip("link", "del", outer).catch(() => undefined);
    throw new Error(`a network namespace could not be made (root and iproute2 are needed): ${(e as Error).message}`);
  }
  return {
    name,
    address,
    async remove() {
      await ip("netns", "del", name).catch(() => undefined);
      await ip("link", "del", outer).catch(() => undefined);
    },
  };
}
