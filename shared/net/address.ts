/**
 * Which IP addresses a server-side fetch may reach. Everything that is not globally routable
 * unicast is refused: loopback, private, link-local (cloud metadata at 169.254.169.254 included),
 * CGNAT, multicast, reserved, documentation and unspecified ranges, IPv6 outside 2000::/3, and
 * IPv6 forms that embed one of those IPv4 addresses (IPv4-mapped, IPv4-compatible,
 * IPv4-translated, NAT64, 6to4, Teredo).
 */
import { isIP } from 'node:net';

type Range = readonly [base: bigint, prefix: number, why: string];

/** An address without the brackets of a URL host or a trailing zone (`%eth0`). */
export function bareAddress(address: string): string {
  return address.replace(/^\[|\]$/g, '').split('%')[0]!;
}

function v4(address: string): bigint | undefined {
  const parts = address.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function v6(input: string): bigint | undefined {
  let address = bareAddress(input).toLowerCase();
  // A trailing dotted quad stands for the last 32 bits.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const tail = v4(dotted[1]!);
    if (tail === undefined) return undefined;
    address = address.slice(0, -dotted[1]!.length) + `${(tail >> 16n).toString(16)}:${(tail & 0xffffn).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 1 && missing !== 0) || missing < 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return undefined;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return value;
}

const V4_BLOCKED: Range[] = [
  [v4('0.0.0.0')!, 8, 'unspecified'],
  [v4('10.0.0.0')!, 8, 'private'],
  [v4('100.64.0.0')!, 10, 'carrier-grade NAT'],
  [v4('127.0.0.0')!, 8, 'loopback'],
  [v4('169.254.0.0')!, 16, 'link-local'],
  [v4('172.16.0.0')!, 12, 'private'],
  [v4('192.0.0.0')!, 24, 'reserved'],
  [v4('192.0.2.0')!, 24, 'documentation'],
  [v4('192.88.99.0')!, 24, 'reserved'],
  [v4('192.168.0.0')!, 16, 'private'],
  [v4('198.18.0.0')!, 15, 'reserved'],
  [v4('198.51.100.0')!, 24, 'documentation'],
  [v4('203.0.113.0')!, 24, 'documentation'],
  [v4('224.0.0.0')!, 4, 'multicast'],
  [v4('240.0.0.0')!, 4, 'reserved'],
];

const V6_BLOCKED: Range[] = [
  [v6('::')!, 128, 'unspecified'],
  [v6('::1')!, 128, 'loopback'],
  [v6('100::')!, 64, 'discard'],
  [v6('2001:db8::')!, 32, 'documentation'],
  [v6('3fff::')!, 20, 'documentation'],
  [v6('2001::')!, 23, 'reserved'],
  [v6('64:ff9b:1::')!, 48, 'reserved'],
  [v6('fc00::')!, 7, 'private'],
  [v6('fe80::')!, 10, 'link-local'],
  [v6('fec0::')!, 10, 'site-local'],
  [v6('ff00::')!, 8, 'multicast'],
];

function inRange(value: bigint, bits: number, [base, prefix]: Range): boolean {
  const shift = BigInt(bits - prefix);
  return value >> shift === base >> shift;
}

function classifyV4(value: bigint): string | undefined {
  return V4_BLOCKED.find((range) => inRange(value, 32, range))?.[2];
}

const NAT64_TOP96 = v6('64:ff9b::')! >> 32n;
/** Global unicast (2000::/3): the only IPv6 space the internet routes. */
const GLOBAL_UNICAST: Range = [v6('2000::')!, 3, 'global unicast'];

/** The IPv4 address an IPv6 address carries (mapped, compatible, translated, NAT64, 6to4, Teredo), if any. */
function embeddedV4(value: bigint): bigint | undefined {
  const top96 = value >> 32n;
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible), ::ffff:0:a.b.c.d (translated), NAT64
  if (top96 === 0xffffn || top96 === 0n || top96 === 0xffff0000n || top96 === NAT64_TOP96) return value & 0xffffffffn;
  if (value >> 112n === 0x2002n) return (value >> 80n) & 0xffffffffn; // 6to4
  if (value >> 96n === 0x20010000n) return ~value & 0xffffffffn; // Teredo client (obfuscated)
  return undefined;
}

/**
 * Why an IP address is not a public target, or undefined when it is public.
 * Returns 'invalid' for anything that is not an IP literal.
 */
export function blockedReason(address: string): string | undefined {
  const bare = bareAddress(address);
  const family = isIP(bare);
  if (family === 4) return classifyV4(v4(bare)!);
  if (family !== 6) return 'invalid';
  const value = v6(bare);
  if (value === undefined) return 'invalid';
  if (value === 0n) return 'unspecified';
  if (value === 1n) return 'loopback';
  const embedded = embeddedV4(value);
  if (embedded !== undefined) {
    const reason = classifyV4(embedded);
    if (reason) return `${reason} (embedded IPv4)`;
  }
  const listed = V6_BLOCKED.find((range) => inRange(value, 128, range))?.[2];
  if (listed) return listed;
  // Outside 2000::/3 only IPv4-mapped (how resolvers may hand out IPv4) and NAT64 forms of a public
  // IPv4 address are real hosts; the rest is unassigned space or a translated, compatible form.
  const top96 = value >> 32n;
  if (!inRange(value, 128, GLOBAL_UNICAST) && top96 !== 0xffffn && top96 !== NAT64_TOP96) return 'reserved';
  return undefined;
}

/** True when the address is globally routable unicast. */
export function isPublicAddress(address: string): boolean {
  return blockedReason(address) === undefined;
}

/** True for loopback addresses (the only non-public kind a test opt-in may unlock). */
export function isLoopback(address: string): boolean {
  const reason = blockedReason(address);
  return reason === 'loopback' || reason === 'loopback (embedded IPv4)';
}

/**
 * The network a client address stands for when counting requests: an IPv4 address itself, an
 * IPv4-mapped IPv6 address as its IPv4 address, and any other IPv6 address as its /64, because a
 * single subscriber usually holds a whole /64 and could otherwise rotate through it to dodge a limit.
 */
export function clientNetwork(address: string): string {
  const bare = bareAddress(address);
  if (isIP(bare) !== 6) return bare;
  const value = v6(bare);
  if (value === undefined) return bare;
  if (value >> 32n === 0xffffn) return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
  const groups = [112n, 96n, 80n, 64n].map((shift) => ((value >> shift) & 0xffffn).toString(16));
  return `${groups.join(':')}::/64`;
}
