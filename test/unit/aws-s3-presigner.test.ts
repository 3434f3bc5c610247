/**
 * Our S3 presigner (shared/aws/s3-presigner.ts) against the SDK's: `getSignedUrl` of
 * `@aws-sdk/s3-request-presigner` over an S3 client configured as wiring/s3.ts configures it, and
 * ours, sign the same PutObject and GetObject at the same date, and the two URLs must be the same
 * string — host, path, every parameter and its order, the signature. The embedded S3 checks no
 * signature, so this is what shows AWS will accept the URLs the functions hand out.
 */
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { S3Presigner } from '#shared/aws/s3-presigner.ts';
import type { AwsCredentials } from '#shared/aws/sigv4.ts';

const LONG_LIVED: AwsCredentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const TEMPORARY: AwsCredentials = { ...LONG_LIVED, sessionToken: 'IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD+token==' };
const SIGNING_DATE = new Date('2026-11-23T19:34:22Z');

const KEYS = [
  'uploads/ws_1/0193a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b',
  'objects/ws 1/assets/with spaces',
  'objects/ws/assets/日本語 — Café.png',
  'objects/a+b=c/x+y==',
  "objects/!'()*~._-/%20&?#",
  'objects//double//slashes/',
];

/** Where the client points: the embedded S3 (path-style) or AWS in a few partitions (virtual-hosted). */
const PLACES = [
  { place: 'the embedded S3, path-style', region: 'us-east-1', endpoint: 'http://127.0.0.1:3572', bucket: 'easel-assets' },
  { place: 'an endpoint on a default port with a base path', region: 'eu-west-3', endpoint: 'https://s3.example.test/storage/', bucket: 'easel-assets' },
  { place: 'AWS us-east-1, virtual-hosted', region: 'us-east-1', endpoint: undefined, bucket: 'easel-assetsbucket-1a2b3c4d5e6f' },
  { place: 'AWS eu-west-3, virtual-hosted', region: 'eu-west-3', endpoint: undefined, bucket: 'easel-assets' },
  { place: 'AWS China, virtual-hosted', region: 'cn-north-1', endpoint: undefined, bucket: 'easel-assets' },
  { place: 'AWS GovCloud, virtual-hosted', region: 'us-gov-west-1', endpoint: undefined, bucket: 'easel-assets' },
  { place: 'AWS, a bucket with dots (path-style)', region: 'eu-central-1', endpoint: undefined, bucket: 'assets.easel.example' },
];

const CREDENTIALS = [
  ['long-lived credentials', LONG_LIVED],
  ['temporary credentials', TEMPORARY],
] as const;

/** Every place × credential kind × key: the combinations the URLs must agree on. */
const CASES = PLACES.flatMap((place) =>
  CREDENTIALS.flatMap(([kind, credentials]) => KEYS.map((key) => [`${place.place}, ${kind}, ${JSON.stringify(key)}`, { ...place, credentials, key }] as const)),
);

function clients(place: { region: string; endpoint: string | undefined; credentials: AwsCredentials }) {
  const sdk = new S3Client({
    region: place.region,
    endpoint: place.endpoint,
    forcePathStyle: place.endpoint !== undefined,
    credentials: place.credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const ours = new S3Presigner({ region: place.region, endpoint: place.endpoint, credentials: async () => place.credentials });
  return { sdk, ours };
}

describe('S3Presigner', () => {
  it.each(CASES)('presigns an upload as the SDK does: %s', async (_case, c) => {
    // Prepare
    const { sdk, ours } = clients(c);
    const command = new PutObjectCommand({ Bucket: c.bucket, Key: c.key, ContentType: 'image/png', ContentLength: 53_211 });

    // Act
    const expected = await getSignedUrl(sdk, command, { expiresIn: 900, signingDate: SIGNING_DATE, signableHeaders: new Set(['content-type', 'content-length']) });
    const actual = await ours.presignPutObject({ bucket: c.bucket, key: c.key, contentType: 'image/png', contentLength: 53_211 }, { expiresIn: 900, signingDate: SIGNING_DATE });

    // Assess
    expect(actual).toBe(expected);
  });

  it.each(CASES)('presigns an upload with a checksum as the SDK does: %s', async (_case, c) => {
    // Prepare
    const { sdk, ours } = clients(c);
    const checksum = 'n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=';
    const command = new PutObjectCommand({ Bucket: c.bucket, Key: c.key, ContentType: 'image/webp', ContentLength: 7, ChecksumSHA256: checksum });

    // Act
    const expected = await getSignedUrl(sdk, command, {
      expiresIn: 900,
      signingDate: SIGNING_DATE,
      signableHeaders: new Set(['content-type', 'content-length']),
      unhoistableHeaders: new Set(['x-amz-checksum-sha256']),
    });
    const actual = await ours.presignPutObject(
      { bucket: c.bucket, key: c.key, contentType: 'image/webp', contentLength: 7, checksumSha256: checksum },
      { expiresIn: 900, signingDate: SIGNING_DATE },
    );

    // Assess
    expect(actual).toBe(expected);
    expect(new URL(actual).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;content-type;host;x-amz-checksum-sha256');
    expect(new URL(actual).searchParams.has('x-amz-checksum-sha256')).toBe(false);
  });

  it.each(CASES)('presigns a download as the SDK does: %s', async (_case, c) => {
    // Prepare
    const { sdk, ours } = clients(c);
    const disposition = "attachment; filename*=UTF-8''it%27s%20%281%29%2A.png";
    const command = new GetObjectCommand({ Bucket: c.bucket, Key: c.key, ResponseContentType: 'image/png', ResponseContentDisposition: disposition });

    // Act
    const expected = await getSignedUrl(sdk, command, { expiresIn: 300, signingDate: SIGNING_DATE });
    const actual = await ours.presignGetObject(
      { bucket: c.bucket, key: c.key, responseContentType: 'image/png', responseContentDisposition: disposition },
      { expiresIn: 300, signingDate: SIGNING_DATE },
    );

    // Assess
    expect(actual).toBe(expected);
  });

  it('names the session token of temporary credentials in the URL, and no token of long-lived ones', async () => {
    // Prepare
    const input = { bucket: 'easel-assets', key: 'a', contentType: 'image/png', contentLength: 1 };
    const temporary = new S3Presigner({ region: 'us-east-1', credentials: async () => TEMPORARY });
    const longLived = new S3Presigner({ region: 'us-east-1', credentials: async () => LONG_LIVED });

    // Act
    const withToken = new URL(await temporary.presignPutObject(input, { expiresIn: 900, signingDate: SIGNING_DATE }));
    const withoutToken = new URL(await longLived.presignPutObject(input, { expiresIn: 900, signingDate: SIGNING_DATE }));

    // Assess
    expect(withToken.searchParams.get('X-Amz-Security-Token')).toBe(TEMPORARY.sessionToken);
    expect(withoutToken.searchParams.has('X-Amz-Security-Token')).toBe(false);
    expect(withToken.searchParams.get('X-Amz-Expires')).toBe('900');
    expect(withToken.searchParams.get('X-Amz-Content-Sha256')).toBe('UNSIGNED-PAYLOAD');
  });

  it.each([0, 1.5, 7 * 24 * 3600 + 1])('refuses a lifetime of %s seconds', async (expiresIn) => {
    // Prepare
    const presigner = new S3Presigner({ region: 'us-east-1', credentials: async () => LONG_LIVED });

    // Act
    const signing = presigner.presignGetObject({ bucket: 'easel-assets', key: 'a' }, { expiresIn });

    // Assess
    await expect(signing).rejects.toThrow(RangeError);
  });
});
