/** Which IPs a server-side fetch may reach: global unicast only, also when an IPv6 form (mapped, NAT64, 6to4, Teredo…) embeds a refused IPv4. */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type IPv4 = ipaddr.IPv4;
type IPv6 = ipaddr.IPv6;

/** Names each blocked range by the reason a caller sees; ipaddr.js's own `range()` names differ. */
function ranges<T extends IPv4 | IPv6>(parseCIDR: (text: string) => [T, number], list: Record<string, string[]>): Record<string, [T, number][]> {
  return Object.fromEntries(Object.entries(list).map(([why, cidrs]) => [why, cidrs.map(parseCIDR)]));
}

const V4_BLOCKED = ranges((text) => ipaddr.IPv4.parseCIDR(text), {
  unspecified: ['0.0.0.0/8'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'],
  'carrier-grade NAT': ['100.64.0.0/10'],
  loopback: ['127.0.0.0/8'],
  'link-local': ['169.254.0.0/16'],
  reserved: ['192.0.0.0/24', '192.88.99.0/24', '198.18.0.0/15', '240.0.0.0/4'],
  documentation: ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24'],
  multicast: ['224.0.0.0/4'],
});

const V6_BLOCKED = ranges((text) => ipaddr.IPv6.parseCIDR(text), {
  unspecified: ['::/128'],
  loopback: ['::1/128'],
  discard: ['100::/64'],
  documentation: ['2001:db8::/32', '3fff::/20'],
  reserved: ['2001::/23', '64:ff9b:1::/48'],
  private: ['fc00::/7'],
  'link-local': ['fe80::/10'],
  'site-local': ['fec0::/10'],
  multicast: ['ff00::/8'],
});

const cidr = (text: string) => ipaddr.IPv6.parseCIDR(text);
/** IPv4-compatible and NAT64's well-known prefix (not its local-use /48), which `range()` does not name. */
const COMPATIBLE = cidr('::/96');
const NAT64 = cidr('64:ff9b::/96');
/** The only IPv6 space the internet routes. */
const GLOBAL_UNICAST = cidr('2000::/3');

/** An address without the brackets of a URL host or a trailing zone (`%eth0`). */
export function bareAddress(address: string): string {
  return address.replace(/^\[|\]$/g, '').split('%')[0]!;
}

/** Undefined when not an IP literal; `isIP` decides first, as ipaddr.js also reads hex, octal and short IPv4 forms (0x7f.1, 2130706433). */
function parse(bare: string): IPv4 | IPv6 | undefined {
  const family = isIP(bare);
  if (family === 4) return ipaddr.IPv4.parse(bare);
  if (family !== 6) return undefined;
  // ipaddr.js reads ::a.b.c.d as ::ffff:a.b.c.d; it is the IPv4-compatible address instead.
  const compatible = /^::(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (compatible) return new ipaddr.IPv6([...Array<number>(12).fill(0), ...ipaddr.IPv4.parse(compatible[1]!).octets]);
  return ipaddr.IPv6.parse(bare);
}

function classifyV4(address: IPv4): string | undefined {
  return ipaddr.subnetMatch(address, V4_BLOCKED, '') || undefined;
}

function embeddedV4(address: IPv6, range: ReturnType<IPv6['range']>): IPv4 | undefined {
  const bytes = address.toByteArray();
  switch (range) {
    case 'ipv4Mapped':
      return address.toIPv4Address();
    case 'rfc6145':
      return new ipaddr.IPv4(bytes.slice(12));
    case '6to4':
      return new ipaddr.IPv4(bytes.slice(2, 6));
    case 'teredo':
      // A Teredo client's address is stored inverted.
      return new ipaddr.IPv4(bytes.slice(12).map((byte) => byte ^ 0xff));
  }
  if (address.match(COMPATIBLE) || address.match(NAT64)) return new ipaddr.IPv4(bytes.slice(12));
  return undefined;
}

/** Why an address is not a public target ('invalid' when not an IP literal); undefined when public. */
export function blockedReason(address: string): string | undefined {
  const parsed = parse(bareAddress(address));
  if (parsed === undefined) return 'invalid';
  if (parsed instanceof ipaddr.IPv4) return classifyV4(parsed);
  const range = parsed.range();
  // First, because :: and ::1 also lie in ::/96, where they would read as 0.0.0.0 and 0.0.0.1.
  if (range === 'unspecified' || range === 'loopback') return range;
  const embedded = embeddedV4(parsed, range);
  if (embedded !== undefined) {
    const reason = classifyV4(embedded);
    if (reason) return `${reason} (embedded IPv4)`;
  }
  const listed = ipaddr.subnetMatch(parsed, V6_BLOCKED, '');
  if (listed) return listed;
  // Outside 2000::/3 only IPv4-mapped (as resolvers may hand out IPv4) and NAT64 forms of a public IPv4 address are real hosts.
  if (!parsed.match(GLOBAL_UNICAST) && range !== 'ipv4Mapped' && !parsed.match(NAT64)) return 'reserved';
  return undefined;
}

export function isPublicAddress(address: string): boolean {
  return blockedReason(address) === undefined;
}

/** The only non-public kind a test opt-in may unlock. */
export function isLoopback(address: string): boolean {
  const reason = blockedReason(address);
  return reason === 'loopback' || reason === 'loopback (embedded IPv4)';
}

/** The network a client counts as: IPv6 by its /64, which one subscriber usually holds and could rotate through. */
export function clientNetwork(address: string): string {
  const bare = bareAddress(address);
  const parsed = parse(bare);
  if (!(parsed instanceof ipaddr.IPv6)) return bare;
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  // Uncompressed: the rate counters' key format.
  return `${parsed.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
