/**
 * Easel's S3 client (shared/aws/s3.ts) held to the SDK's: the SDK's S3 client, configured as
 * wiring/s3.ts configured it, and ours send the same commands at the same date to a local server
 * that records them, and what reaches the wire must be the same — method, path and query, every
 * header and its value, the body, the Authorization header to the character — and both must read
 * the server's answers alike. For AWS's own host names (virtual-hosted buckets), which a test
 * cannot send to, the request the SDK signs is taken from its middleware stack and compared with
 * signedRequest(). The embedded S3 checks no signature, so this is what shows AWS will accept the
 * functions' requests. The SDK's telemetry headers are left out (test/support/sdk-telemetry.ts),
 * so the signatures compare.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as Sdk from '@aws-sdk/client-s3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  CopyObjectCommand,
  copySource,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  signedRequest,
  type S3Command,
} from '#shared/aws/s3.ts';
import type { AwsCredentials } from '#shared/aws/sigv4.ts';
import { withoutTelemetry } from '../support/sdk-telemetry.ts';

const LONG_LIVED: AwsCredentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const TEMPORARY: AwsCredentials = { ...LONG_LIVED, sessionToken: 'IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD+token==' };
const SIGNING_DATE = new Date('2026-11-23T19:34:22Z');

const KEYS = [
  'uploads/ws_1/0193a1b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b',
  'objects/ws 1/assets/with  spaces ',
  'objects/ws/assets/日本語 — Café 🎨.png',
  "objects/a+b=c/x+y==!'()*~._-",
  'objects/%20&?#;:@$,[]{}|^`\\',
  'objects//double//slashes/',
  'captures/a&b<c>"d\'e\r\nf',
];

const CREDENTIALS = [
  ['long-lived credentials', LONG_LIVED],
  ['temporary credentials', TEMPORARY],
] as const;

/** Each operation the stores send, as our command and the SDK's for the same request. */
function commandPairs(bucket: string, key: string): [string, S3Command, object][] {
  const body = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
  const source = copySource(bucket, `uploads/${key}`);
  const objects = [{ Key: key }, { Key: 'captures/other.png' }];
  return [
    ['HeadObject', new HeadObjectCommand({ Bucket: bucket, Key: key }), new Sdk.HeadObjectCommand({ Bucket: bucket, Key: key })],
    ['GetObject', new GetObjectCommand({ Bucket: bucket, Key: key }), new Sdk.GetObjectCommand({ Bucket: bucket, Key: key })],
    ['PutObject', new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'image/png' }), new Sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: 'image/png' })],
    [
      'CopyObject',
      new CopyObjectCommand({ Bucket: bucket, Key: key, CopySource: source, ContentType: 'image/webp', MetadataDirective: 'REPLACE' }),
      new Sdk.CopyObjectCommand({ Bucket: bucket, Key: key, CopySource: source, ContentType: 'image/webp', MetadataDirective: 'REPLACE' }),
    ],
    ['DeleteObject', new DeleteObjectCommand({ Bucket: bucket, Key: key }), new Sdk.DeleteObjectCommand({ Bucket: bucket, Key: key })],
    // The SDK picks CRC32 unless told; ours always sends SHA-256, which S3 accepts as well.
    [
      'DeleteObjects',
      new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true } }),
      new Sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: objects, Quiet: true }, ChecksumAlgorithm: 'SHA256' }),
    ],
  ];
}

/** The SDK's client as wiring/s3.ts built it, minus the telemetry headers. */
function sdkClient(region: string, endpoint: string | undefined, credentials: AwsCredentials): Sdk.S3Client {
  return withoutTelemetry(
    new Sdk.S3Client({
      region,
      endpoint,
      forcePathStyle: endpoint !== undefined,
      credentials,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 1,
    }),
  );
}

const ours = (region: string, endpoint: string | undefined, credentials: AwsCredentials) =>
  new S3Client({ region, endpoint, credentials: async () => credentials, maxAttempts: 1, connectionTimeoutMs: 1_000, requestTimeoutMs: 2_000, socketTimeoutMs: 2_000 });

beforeEach(() => {
  // Both clients date their signature from Date alone: freeze it, leave the timers real.
  vi.useFakeTimers({ toFake: ['Date'], now: SIGNING_DATE });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('S3 requests on the wire', () => {
  interface Recorded {
    method: string;
    url: string;
    headers: IncomingHttpHeaders;
    body: Buffer;
  }
  const recorded: Recorded[] = [];
  const OBJECT_HEADERS = {
    'content-type': 'image/png',
    etag: '"9b2cf535f27731c974343645a3985328"',
    'last-modified': 'Mon, 23 Nov 2026 19:30:00 GMT',
    'x-amz-meta-origin': 'easel',
    'x-amz-request-id': 'REQ1',
    'x-amz-id-2': 'HOST1',
  };
  // What S3 answers each operation with, entities and all.
  function answer(request: Recorded, response: ServerResponse): void {
    if (request.method === 'HEAD') return void response.writeHead(200, { ...OBJECT_HEADERS, 'content-length': '12' }).end();
    if (request.method === 'GET') return void response.writeHead(200, { ...OBJECT_HEADERS, 'content-length': '3' }).end('abc');
    if (request.method === 'DELETE') return void response.writeHead(204, { 'x-amz-request-id': 'REQ2' }).end();
    if (request.method === 'POST') {
      return void response
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          '<?xml version="1.0" encoding="UTF-8"?>\n<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Deleted><Key>a &amp; b</Key></Deleted><Error><Key>c &lt;d&gt; &#x0D;&#10;e</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error></DeleteResult>',
        );
    }
    if (request.headers['x-amz-copy-source']) {
      return void response
        .writeHead(200, { 'content-type': 'application/xml', 'x-amz-request-id': 'REQ3' })
        .end('<?xml version="1.0" encoding="UTF-8"?>\n<CopyObjectResult><LastModified>2026-11-23T19:34:22.000Z</LastModified><ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag></CopyObjectResult>');
    }
    response.writeHead(200, { etag: '"5d41402abc4b2a76b9719d911017c592"', 'x-amz-version-id': 'v1' }).end();
  }
  const server = createServer((request, response) => {
    // A Date header would let the SDK correct its (frozen) clock to the real one.
    response.sendDate = false;
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { method: request.method!, url: request.url!, headers: request.headers, body: Buffer.concat(chunks) };
      recorded.push(entry);
      answer(entry, response);
    });
  });
  let origin = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The fields of an output our client gives, with the SDK's stream read into bytes. */
  async function comparable(output: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { $metadata, Body, ...fields } = output as { $metadata: Record<string, unknown>; Body?: unknown };
    const body = Body === undefined ? {} : { Body: Buffer.from(Body instanceof Uint8Array ? Body : await (Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray()) };
    return { ...fields, ...body, $metadata: { httpStatusCode: $metadata.httpStatusCode, requestId: $metadata.requestId, extendedRequestId: $metadata.extendedRequestId } };
  }

  const CASES = [
    { place: 'the embedded S3, path-style', base: '' },
    { place: 'an endpoint with a base path', base: '/storage/' },
  ].flatMap(({ place, base }) =>
    CREDENTIALS.flatMap(([kind, credentials]) => KEYS.map((key) => [`${place}, ${kind}, ${JSON.stringify(key)}`, { base, credentials, key }] as const)),
  );

  it.each(CASES)('sends each operation as the SDK does and reads the answers alike: %s', async (_case, c) => {
    // Prepare
    const endpoint = `${origin}${c.base}`;
    const sdk = sdkClient('eu-west-3', endpoint, c.credentials);
    const client = ours('eu-west-3', endpoint, c.credentials);

    for (const [operation, mine, theirs] of commandPairs('easel-assets', c.key)) {
      recorded.length = 0;

      // Act
      const expected = await sdk.send(theirs as never);
      const actual = await client.send(mine);

      // Assess
      const [sent, ourSent] = recorded;
      expect({ operation, ...ourSent }).toEqual({ operation, ...sent });
      expect(await comparable(actual as never)).toEqual(await comparable(expected as never));
    }
    sdk.destroy();
    client.destroy();
  });
});

describe('S3 requests to AWS', () => {
  const PLACES = [
    { place: 'us-east-1, virtual-hosted', region: 'us-east-1', bucket: 'easel-assetsbucket-1a2b3c4d5e6f' },
    { place: 'eu-west-3, virtual-hosted', region: 'eu-west-3', bucket: 'easel-assets' },
    { place: 'China, virtual-hosted', region: 'cn-north-1', bucket: 'easel-assets' },
    { place: 'GovCloud, virtual-hosted', region: 'us-gov-west-1', bucket: 'easel-assets' },
    { place: 'a bucket with dots (path-style)', region: 'eu-central-1', bucket: 'assets.easel.example' },
  ];
  const CASES = PLACES.flatMap((place) =>
    CREDENTIALS.flatMap(([kind, credentials]) => KEYS.map((key) => [`${place.place}, ${kind}, ${JSON.stringify(key)}`, { ...place, credentials, key }] as const)),
  );

  /** The request the SDK signed, taken before it is sent. */
  async function sdkSigned(client: Sdk.S3Client, command: unknown) {
    let taken: { hostname: string; path: string; query: Record<string, string>; headers: Record<string, string> } | undefined;
    client.middlewareStack.add(
      () => async (args: { request: unknown }) => {
        taken = args.request as typeof taken;
        throw new Error('taken');
      },
      { step: 'finalizeRequest', priority: 'low', name: 'take' },
    );
    await client.send(command as never).catch((error: unknown) => {
      if ((error as Error).message !== 'taken') throw error;
    });
    client.middlewareStack.remove('take');
    return taken!;
  }

  it.each(CASES)('signs each operation as the SDK does: %s', async (_case, c) => {
    // Prepare
    const sdk = sdkClient(c.region, undefined, c.credentials);

    for (const [operation, mine, theirs] of commandPairs(c.bucket, c.key)) {
      // Act
      const expected = await sdkSigned(sdk, theirs);
      const actual = signedRequest(mine, { region: c.region }, c.credentials, SIGNING_DATE);

      // Assess
      const [path, query = ''] = actual.path.split('?');
      const signed = /SignedHeaders=([^,]+)/.exec(expected.headers.authorization!)![1]!.split(';');
      const pick = (headers: Record<string, string>) => Object.fromEntries([...signed, 'authorization'].map((name) => [name, headers[name]]));
      expect({ operation, host: actual.origin.host, path, query: Object.fromEntries(new URLSearchParams(query)), headers: pick(actual.headers) }).toEqual({
        operation,
        host: expected.hostname,
        path: expected.path,
        query: expected.query,
        headers: pick(expected.headers),
      });
      expect(actual.origin.protocol).toBe('https:');
    }
    sdk.destroy();
  });
});

describe('S3 commands', () => {
  it.each([
    ['a member the client does not support', new GetObjectCommand({ Bucket: 'b', Key: 'k', Range: 'bytes=0-9' } as never), /GetObject: Range is not supported/],
    ['a version of an object to delete', new DeleteObjectsCommand({ Bucket: 'b', Delete: { Objects: [{ Key: 'k', VersionId: '1' } as never] } }), /only Delete.Objects\[\].Key/],
    ['an empty key', new HeadObjectCommand({ Bucket: 'b', Key: '' }), /HeadObject: Key must be a non-empty string/],
  ])('refuses %s before sending anything', async (_case, command, message) => {
    // Prepare
    const client = ours('us-east-1', 'http://127.0.0.1:9', LONG_LIVED);

    // Act
    const sending = client.send(command);

    // Assess
    await expect(sending).rejects.toThrow(message);
  });

  it('encodes a copy source as a path, so S3 (and Node, which refuses other characters in a header) takes any key', () => {
    expect(copySource('easel-assets', "uploads/ws 1/日本/a+b=c!'()*~//x")).toBe("easel-assets/uploads/ws%201/%E6%97%A5%E6%9C%AC/a%2Bb%3Dc%21%27%28%29%2A~//x");
  });
});
