/**
 * Where an S3 object is, as the SDK's S3 client addresses it: with an endpoint (the embedded S3)
 * the bucket goes in the path (`forcePathStyle`); on AWS it goes in the host name,
 * `https://{bucket}.s3.{region}.{partition's suffix}`, when it is a valid host label, and in the
 * path of the regional endpoint otherwise (a name with dots would not match the wildcard
 * certificate). The key is RFC 3986-encoded segment by segment, its slashes kept as they are:
 * S3 neither normalises the path nor wants it encoded twice. Shared by the presigner
 * (s3-presigner.ts) and the client (s3.ts); test/unit/aws-s3-presigner.test.ts and
 * aws-s3.test.ts hold both to the SDK.
 */
import { uriEscape } from '#shared/aws/sigv4.ts';

/** DNS suffixes of the partitions other than `aws` (amazonaws.com), by region prefix. */
const PARTITION_SUFFIXES: [RegExp, string][] = [
  [/^cn-\w+-\d+$/, 'amazonaws.com.cn'],
  [/^eusc-de-\w+-\d+$/, 'amazonaws.eu'],
  [/^us-iso-\w+-\d+$/, 'c2s.ic.gov'],
  [/^us-isob-\w+-\d+$/, 'sc2s.sgov.gov'],
  [/^eu-isoe-\w+-\d+$/, 'cloud.adc-e.uk'],
  [/^us-isof-\w+-\d+$/, 'csp.hci.ic.gov'],
];

/** A bucket name that can be a host label: otherwise the SDK, too, puts it in the path. */
const VIRTUAL_HOSTABLE = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

/** A key as it goes in a path: each segment percent-encoded, the slashes between them kept. */
export const encodeKey = (key: string): string => key.split('/').map(uriEscape).join('/');

export interface S3Address {
  /** `https://host[:port]` to send to. */
  origin: string;
  /** The Host header. */
  host: string;
  /** The encoded path, without a query string. */
  path: string;
}

/**
 * The origin, Host header and encoded path of an object (or, with the key `''`, of its bucket).
 *
 * @param endpoint origin of an S3-compatible server, addressed path-style; S3's regional endpoint when absent
 */
export function s3Address(region: string, endpoint: URL | undefined, bucket: string, key: string): S3Address {
  if (endpoint) {
    const base = endpoint.pathname.replace(/\/$/, '');
    return { origin: endpoint.origin, host: endpoint.host, path: `${base}/${uriEscape(bucket)}/${encodeKey(key)}` };
  }
  const suffix = PARTITION_SUFFIXES.find(([pattern]) => pattern.test(region))?.[1] ?? 'amazonaws.com';
  const regional = `s3.${region}.${suffix}`;
  if (VIRTUAL_HOSTABLE.test(bucket)) {
    const host = `${bucket}.${regional}`;
    return { origin: `https://${host}`, host, path: `/${encodeKey(key)}` };
  }
  return { origin: `https://${regional}`, host: regional, path: `/${uriEscape(bucket)}/${encodeKey(key)}` };
}
