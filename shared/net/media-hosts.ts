/**
 * The only hosts the image proxy fetches from: the social network's media hosting, exactly these
 * names (no subdomains, no look-alikes). Kept apart so configuration and the proxy share one list.
 */
export const MEDIA_HOSTS = ['pbs.twimg.com', 'abs.twimg.com', 'ton.twimg.com', 'video.twimg.com'] as const;

export type MediaHost = (typeof MEDIA_HOSTS)[number];

/** True when the name is one of the four media hosts, compared exactly (URL hostnames are lowercase). */
export function isMediaHost(hostname: string): hostname is MediaHost {
  return (MEDIA_HOSTS as readonly string[]).includes(hostname);
}
