/** http(s) without credentials, resolved in Node (interception runs before Chromium's DNS) to public addresses only. */
import { InvalidUrlError, UpstreamFailedError } from '#shared/errors.ts';
import { isIP } from 'node:net';
import { bareAddress } from '#shared/net/address.ts';
import { BlockedTargetError, resolvePublicTarget } from '#shared/net/guard.ts';
import type { Resolver, TargetPolicy } from '#shared/net/guard.ts';

const CAPTURABLE = new Set(['http:', 'https:']);

/** The cache key and the URL the response names: WHATWG form without the fragment; 400 when malformed, not http(s), or with credentials. */
export function normaliseTargetUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (error) {
    throw new InvalidUrlError('Malformed URL', 'url must be an absolute http:// or https:// URL.', error);
  }
  if (!CAPTURABLE.has(url.protocol)) {
    throw new InvalidUrlError('Unsupported URL scheme', `Only http:// and https:// pages can be captured (got ${url.protocol}).`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidUrlError('URL carries credentials', 'Remove user:password@ from the URL; credentials are never sent to the target.');
  }
  url.hash = '';
  return url;
}

export type Verdict = { allowed: true } | { allowed: false; reason: string; kind: 'scheme' | 'address' | 'unresolvable' | 'lookup-failed' };

/** Decides outbound requests of a capture: the target itself, its redirects and its sub-requests. */
export interface TargetGuard {
  /** The verdict on one request URL (any scheme: the page may ask for anything). */
  verdict(url: URL): Promise<Verdict>;
  assertCapturable(url: URL): Promise<void>;
}

const NOT_FOUND = new Set(['ENOTFOUND', 'ENODATA', 'EAI_NONAME', 'EAI_NODATA']);

/** A guard applying `policy`, resolving through `resolve` (share it with the egress proxy to pin answers). */
export function createTargetGuard(policy: TargetPolicy, resolve: Resolver): TargetGuard {
  const verdict = async (url: URL): Promise<Verdict> => {
    if (!CAPTURABLE.has(url.protocol)) return { allowed: false, kind: 'scheme', reason: `${url.protocol} requests are not allowed` };
    try {
      await resolvePublicTarget(url, policy, resolve);
      return { allowed: true };
    } catch (error) {
      if (error instanceof BlockedTargetError) {
        return error.reason === 'unresolvable'
          ? { allowed: false, kind: 'unresolvable', reason: 'the host name has no address' }
          : { allowed: false, kind: 'address', reason: `${error.reason} address` };
      }
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (NOT_FOUND.has(code)) return { allowed: false, kind: 'unresolvable', reason: 'the host name does not resolve' };
      return { allowed: false, kind: 'lookup-failed', reason: `DNS lookup failed (${code || (error as Error).message})` };
    }
  };

  return {
    verdict,
    async assertCapturable(url) {
      const result = await verdict(url);
      if (result.allowed) return;
      switch (result.kind) {
        case 'address':
          throw new InvalidUrlError(
            'Target address not allowed',
            `${url.hostname} ${isIP(bareAddress(url.hostname)) ? 'is' : 'resolves to'} a ${result.reason}; only publicly reachable hosts can be captured.`,
          );
        case 'unresolvable':
          throw new InvalidUrlError('Target host does not resolve', `${url.hostname}: ${result.reason}. Check the URL for typos.`);
        case 'scheme':
          throw new InvalidUrlError('Unsupported URL scheme', 'Only http:// and https:// pages can be captured.');
        case 'lookup-failed':
          throw new UpstreamFailedError({ hint: `The target's host name could not be looked up (${result.reason}); retry later.`, origin: 'target' });
      }
    },
  };
}
