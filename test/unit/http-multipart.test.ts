import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { multipartBody } from '#shared/http/multipart.ts';
import { route } from '#shared/http/route.ts';
import type { MultipartFile, RouteDef } from '#shared/route-types.ts';
import { filePart } from '#shared/schemas/multipart.ts';
import { apiEvent, lambdaContext } from '../support/event.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { testRoute } from '../support/routes.ts';

const Form = v.object({
  image: filePart('image must be one file part', 'The image.'),
  format: v.picklist(['png', 'jpeg']),
});

const row: RouteDef = testRoute({
  method: 'POST',
  path: '/api/upload',
  body: { contentType: 'multipart/form-data', schema: Form, maxBytes: 2048 },
  errors: [400, 413],
});

const echo = route(
  { ...row, operationId: 'upload' },
  async ({ body }) => {
    const { image, format } = body as unknown as { image: MultipartFile; format: string };
    return { format, file: { filename: image.filename, mimetype: image.mimetype, text: image.content.toString('utf8') } };
  },
  { multipartBody },
);

/** A form encoded as fetch would send it, then delivered as API Gateway does: base64 with the browser's Content-Type. */
async function formEvent(form: FormData, contentType?: string) {
  const request = new Request('http://local/api/upload', { method: 'POST', body: form });
  const bytes = Buffer.from(await request.arrayBuffer());
  const event = apiEvent({ method: 'POST', path: '/api/upload', headers: { 'content-type': contentType ?? request.headers.get('content-type')! } });
  return { ...event, body: bytes.toString('base64'), isBase64Encoded: true };
}

function rawEvent(body: string, contentType: string) {
  const event = apiEvent({ method: 'POST', path: '/api/upload', headers: { 'content-type': contentType } });
  return { ...event, body: Buffer.from(body).toString('base64'), isBase64Encoded: true };
}

const call = async (event: ReturnType<typeof apiEvent>) => {
  const result = await echo(event, lambdaContext());
  return { status: result.statusCode, body: JSON.parse(result.body ?? '') };
};

const envelope = (status: number, code: string) => expectedEnvelope('http://easel.test', status, code);

const form = (parts: [string, string | Blob, string?][]) => {
  const data = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === 'string') data.append(name, value);
    else data.append(name, value, filename);
  }
  return data;
};

describe('route handler: multipart/form-data bodies', () => {
  it('passes text fields as strings and a file part as name, type and bytes', async () => {
    const event = await formEvent(
      form([
        ['image', new Blob(['PNGDATA'], { type: 'image/png' }), 'shot.png'],
        ['format', 'png'],
      ]),
    );

    expect(await call(event)).toEqual({ status: 200, body: { format: 'png', file: { filename: 'shot.png', mimetype: 'image/png', text: 'PNGDATA' } } });
  });

  it("accepts a boundary with characters Middy's own check would refuse", async () => {
    const boundary = "x'()+_,.:=?y";
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="format"',
      '',
      'jpeg',
      `--${boundary}`,
      'Content-Disposition: form-data; name="image"; filename="a.jpg"',
      'Content-Type: image/jpeg',
      '',
      'JPEG',
      `--${boundary}--`,
      '',
    ].join('\r\n');

    const result = await call(rawEvent(body, `multipart/form-data; boundary="${boundary}"`));

    expect(result).toEqual({ status: 200, body: { format: 'jpeg', file: { filename: 'a.jpg', mimetype: 'image/jpeg', text: 'JPEG' } } });
  });

  it.each([
    ['no image', () => form([['format', 'png']]), 'invalid_request', /^image is required/],
    [
      'the image as a text field',
      () =>
        form([
          ['image', 'not a file'],
          ['format', 'png'],
        ]),
      'invalid_request',
      /^image: image must be one file part/,
    ],
    [
      'two images',
      () =>
        form([
          ['image', new Blob(['A'], { type: 'image/png' }), 'a.png'],
          ['image', new Blob(['B'], { type: 'image/png' }), 'b.png'],
          ['format', 'png'],
        ]),
      'invalid_request',
      /^image: image must be one file part/,
    ],
    [
      'a format outside the enum',
      () =>
        form([
          ['image', new Blob(['A'], { type: 'image/png' }), 'a.png'],
          ['format', 'gif'],
        ]),
      'unsupported_value',
      /format must be one of: png, jpeg/,
    ],
  ])('answers %s with 400 %s', async (_case, build, code, hint) => {
    const result = await call(await formEvent(build()));

    expect(result).toEqual({ status: 400, body: { ...envelope(400, code), hint: expect.stringMatching(hint) } });
  });

  it.each([
    ['a JSON body', '{"format":"png"}', 'application/json', /multipart\/form-data/],
    ['a multipart type without a boundary', '--x--', 'multipart/form-data', /multipart\/form-data/],
    ['a body that does not match its boundary', 'garbage without any boundary', 'multipart/form-data; boundary=abc', /not valid multipart/],
  ])('answers %s with 400 invalid_request', async (_case, body, contentType, hint) => {
    const result = await call(rawEvent(body, contentType));

    expect(result).toEqual({ status: 400, body: { ...envelope(400, 'invalid_request'), hint: expect.stringMatching(hint) } });
  });

  it('answers a missing body with 400 invalid_request', async () => {
    const event = apiEvent({ method: 'POST', path: '/api/upload', headers: { 'content-type': 'multipart/form-data; boundary=abc' } });

    expect(await call(event)).toEqual({ status: 400, body: envelope(400, 'invalid_request') });
  });

  it('answers a body over the route limit with 413 and the limit', async () => {
    const event = await formEvent(
      form([
        ['image', new Blob([Buffer.alloc(4096, 1)], { type: 'image/png' }), 'big.png'],
        ['format', 'png'],
      ]),
    );

    expect(await call(event)).toEqual({ status: 413, body: { ...envelope(413, 'invalid_request'), limit: 2048 } });
  });
});
