/** Refuses an outbound request unless every address of its host is public; `guardedLookup` checks again at connect time, against DNS rebinding. */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { TtlCache } from '#shared/cache/ttl-cache.ts';
import { bareAddress, blockedReason, isLoopback } from '#shared/net/address.ts';

/** Callers map it to their own envelope (invalid_url, 403…). */
export class BlockedTargetError extends Error {
  readonly reason: string;
  constructor(host: string, reason: string) {
    super(`Refusing to connect to ${host}: ${reason} address`);
    this.name = 'BlockedTargetError';
    this.reason = reason;
  }
}

export interface TargetPolicy {
  /** Tests and local runs only (UNSAFE_TEST_LOOPBACK_PORTS, LOCAL_CAPTURE_PORTS). */
  loopbackPorts: readonly number[];
}

export type Resolver = (host: string) => Promise<LookupAddress[]>;

/** getaddrinfo, as http.request would use it. */
export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

function checkAddress(host: string, address: string, port: number, policy: TargetPolicy): void {
  const reason = blockedReason(address);
  if (reason === undefined) return;
  if (policy.loopbackPorts.includes(port) && isLoopback(address)) return;
  throw new BlockedTargetError(host, reason);
}

/** Checks every address the host resolves to, as an attacker controls which one a client picks. */
export async function resolvePublicTarget(url: URL, policy: TargetPolicy, resolve: Resolver = systemResolver): Promise<LookupAddress[]> {
  const host = bareAddress(url.hostname);
  const port = portOf(url);
  const family = isIP(host);
  const addresses = family ? [{ address: host, family }] : await resolve(host);
  if (addresses.length === 0) throw new BlockedTargetError(host, 'unresolvable');
  for (const { address } of addresses) checkAddress(host, address, port, policy);
  return addresses;
}

/** A `lookup` for http(s) options that refuses non-public answers, so the connection goes to the checked address. */
export function guardedLookup(port: number, policy: TargetPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((addresses) => {
        for (const { address } of addresses) checkAddress(hostname, address, port, policy);
        const wanted = typeof options === 'object' && options.family ? addresses.filter((entry) => entry.family === options.family) : addresses;
        if (typeof options === 'object' && options.all) (callback as (e: null, a: LookupAddress[]) => void)(null, wanted);
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, '', 0));
  };
}

/** Eviction only costs a fresh look-up: whoever connects still checks the answer it connects to. */
const MAX_PINNED_NAMES = 1_000;

/** Remembers answers (not failures) for `ttlMs`, so a check and the connection after it see the same addresses even if DNS changes. */
export function cachingResolver(resolve: Resolver, ttlMs: number, now: () => number = Date.now): Resolver {
  const answers = new TtlCache<string, Promise<LookupAddress[]>>({ ttlMs, maxEntries: MAX_PINNED_NAMES, now });
  return (host) => {
    const key = host.toLowerCase();
    const hit = answers.get(key);
    if (hit) return hit;
    const addresses = resolve(host);
    answers.set(key, addresses);
    addresses.catch(() => {
      if (answers.get(key) === addresses) answers.delete(key);
    });
    return addresses;
  };
}
