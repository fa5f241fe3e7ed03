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

/**
 * The refused blocks of each family by what they lead to; the metadata services first, ahead
 * of the ranges holding them.
 */
const V4_REFUSED: Partial<Record<RefusedClass, string[]>> = {
  metadata: ["169.254.169.254/32"],
  unspecified: ["0.0.0.0/8"],
  private: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"],
  shared: ["100.64.0.0/10"],
  loopback: ["127.0.0.0/8"],
  "link-local": ["169.254.0.0/16"],
  // IETF protocol assignments (among them 192.0.0.192, a cloud's metadata service); the
  // benchmarking networks, never the Internet's; class E and the limited broadcast 255.255.255.255.
  reserved: ["192.0.0.0/24", "198.18.0.0/15", "240.0.0.0/4"],
  multicast: ["224.0.0.0/4"],
};
const V6_REFUSED: Partial<Record<RefusedClass, string[]>> = {
  metadata: ["fd00:ec2::254/128"],
  // fec0::/10 is site-local: deprecated, still routed inside some networks.
  private: ["fc00::/7", "fec0::/10"],
  "link-local": ["fe80::/10"],
  multicast: ["ff00::/8"],
};

function ranges(refused: Partial<Record<RefusedClass, string[]>>, parse: (text: string) => bigint): readonly Range[] {
  return Object.entries(refused).flatMap(([what, blocks]) =>
    blocks.map((block): Range => {
      const [base, prefix] = block.split("/");
      return [parse(base!), Number(prefix), what as RefusedClass];
    }),
  );
}

const V4_RANGES = ranges(V4_REFUSED, v4);
const V6_RANGES = ranges(V6_REFUSED, v6);

function inRange(n: bigint, bits: number, [base, prefix]: Range): boolean {
  const shift = BigInt(bits - prefix);
  return n >> shift === base >> shift;
}

function classifyV4(n: bigint): RefusedClass | undefined {
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
