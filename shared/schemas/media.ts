import * as v from 'valibot';
import { MEDIA_HOSTS } from '#shared/net/media-hosts.ts';

/** Longer URLs are refused before parsing; real media URLs are far shorter. */
export const MEDIA_URL_MAX_LENGTH = 2048;

export const ImageProxyQuery = v.object({
  url: v.pipe(
    v.string(),
    v.maxLength(MEDIA_URL_MAX_LENGTH, `must be at most ${MEDIA_URL_MAX_LENGTH} characters`),
    v.url('must be an absolute URL'),
    v.description(`https URL of the media file, on exactly one of ${MEDIA_HOSTS.join(', ')} (URL-encode it).`),
    v.examples(['https://pbs.twimg.com/media/FspwrnGWYAEvC3n.jpg']),
  ),
});
export type ImageProxyQuery = v.InferOutput<typeof ImageProxyQuery>;
