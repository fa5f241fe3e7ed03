import { isIPv4, isIPv6 } from "node:net";

/**
 * Why an address is not one the server may call on a caller's behalf: it leads to this host,
 * to the network the server sits in, or to the cloud's own metadata service, none of which a
 * configuration sent over the API may reach.
 */
export type RefusedClass = "loopback" | "private" | "shared" | "link-local" | "metadata" | "unspecified" | "multicast" | "reserved";

type Range = readonly [base: bigint, prefix: number, what: RefusedClass];

function v4(text: string): bigint {
  return text.split(".").reduce((n, octet) => (n << 8n) | BigInt(Number(octet)), 0n);
}

/** Ahead of the ranges holding them. */
const METADATA_V4 = [v4("169.254.169.254")];
const V4_RANGES: readonly Range[] = [
  [v4("0.0.0.0"), 8, "unspecified"],
  [v4("10.0.0.0"), 8, "private"],
  [v4("100.64.0.0"), 10, "shared"],
  [v4("127.0.0.0"), 8, "loopback"],
  [v4("169.254.0.0"), 16, "link-local"],
  [v4("172.16.0.0"), 12, "private"],
  // IETF protocol assignments: among them 192.0.0.192, a cloud's metadata service.
  [v4("192.0.0.0"), 24, "reserved"],
  [v4("192.168.0.0"), 16, "private"],
  // Benchmarking networks: never the Internet's.
  [v4("198.18.0.0"), 15, "reserved"],
  [v4("224.0.0.0"), 4, "multicast"],
  // Class E and the limited broadcast 255.255.255.255.
  [v4("240.0.0.0"), 4, "reserved"],
];

/** The 128 bits of a valid IPv6 text (zone id dropped, a dotted IPv4 tail taken). */
function v6(text: string): bigint {
  let rest = text.replace(/%.*$/, "").toLowerCase();
  const dotted = /\d+\.\d+\.\d+\.\d+$/.exec(rest);
  if (dotted) {
    const n = v4(dotted[0]);
    rest = `${rest.slice(0, -dotted[0].length)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const groups = (s: string) => (s ? s.split(":").map((g) => BigInt(parseInt(g, 16))) : []);
  const [front, back] = rest.includes("::") ? rest.split("::").map(groups) : [groups(rest), []];
  const all = [...front, ...Array<bigint>(8 - front.length - back.length).fill(0n), ...back];
  return all.reduce((n, g) => (n << 16n) | g, 0n);
}

const METADATA_V6 = [v6("fd00:ec2::254")];
const V6_RANGES: readonly Range[] = [
  [v6("fc00::"), 7, "private"],
  [v6("fe80::"), 10, "link-local"],
  // Site-local: deprecated, still routed inside some networks.
  [v6("fec0::"), 10, "private"],
  [v6("ff00::"), 8, "multicast"],
];

function inRange(n: bigint, bits: number, [base, prefix]: Range): boolean {
  const shift = BigInt(bits - prefix);
  return n >> shift === base >> shift;
}

function classifyV4(n: bigint): RefusedClass | undefined {
  if (METADATA_V4.includes(n)) return "metadata";
  return V4_RANGES.find((r) => inRange(n, 32, r))?.[2];
}

/** The IPv4 address an IPv6 one stands for (mapped, compatible, NAT64 or 6to4), if any. */
function embeddedV4(n: bigint): bigint | undefined {
  const low32 = n & 0xffffffffn;
  if (n >> 32n === 0xffffn) return low32; // ::ffff:a.b.c.d
  if (n >> 32n === 0n) return low32; // ::a.b.c.d (deprecated "compatible"), and :: and ::1 themselves
  if (n >> 32n === v6("64:ff9b::") >> 32n) return low32; // NAT64's well-known prefix
  if (n >> 112n === 0x2002n) return (n >> 80n) & 0xffffffffn; // 6to4
  return undefined;
}

function classifyV6(n: bigint): RefusedClass | undefined {
  if (n === 0n) return "unspecified";
  if (n === 1n) return "loopback";
  if (METADATA_V6.includes(n)) return "metadata";
  const inner = embeddedV4(n);
  if (inner !== undefined) return classifyV4(inner);
  return V6_RANGES.find((r) => inRange(n, 128, r))?.[2];
}

/**
 * What keeps `address` (an IP literal, v4 or v6, brackets allowed) from being called, or
 * undefined for an address on the Internet. Not an IP literal: "reserved" (a caller checks
 * addresses, which names are not).
 */
export function refusedClass(address: string): RefusedClass | undefined {
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  if (isIPv4(bare)) return classifyV4(v4(bare));
  if (isIPv6(bare)) return classifyV6(v6(bare));
  return "reserved";
}
