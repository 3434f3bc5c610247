/** The only hosts the image proxy fetches from, exactly (no subdomains); shared by configuration and the proxy. */
export const MEDIA_HOSTS = ['pbs.twimg.com', 'abs.twimg.com', 'ton.twimg.com', 'video.twimg.com'] as const;

export type MediaHost = (typeof MEDIA_HOSTS)[number];

/** Exact comparison: URL hostnames are lower-case. */
export function isMediaHost(hostname: string): hostname is MediaHost {
  return (MEDIA_HOSTS as readonly string[]).includes(hostname);
}
