/**
 * When the picture is taken, judged on pixels (issue 41): content that arrives after load, an
 * endless feed, requests that never answer, a ticking chart, a page left by a click or a redirect,
 * and headers and cookies at their bounds; the answer and its report say only what happened.
 */
import { describe, expect, it } from 'vitest';
import { call, freshClient } from '../support/client.ts';
import { expectedEnvelope } from '../support/expectations.ts';
import { readPixels } from '../support/images.ts';
import { useRuntimeWithPages } from '../support/capture-suite.ts';
import { BLUE, GREEN, LIST_ROWS, RED, ROW_PX, startSettlePages } from '../support/settle-pages.ts';
import { MAX_CAPTURE_HEIGHT_PX, MAX_CREDENTIAL_BYTES } from '#shared/schemas/screenshot.ts';

const suite = useRuntimeWithPages(startSettlePages);

const capture = (body: Record<string, unknown>) => call(suite.runtime.url, '/api/screenshot', { body: { forceRefresh: true, ...body }, from: freshClient() });

/** Header lines of exactly `bytes` as sent ("Name: value\r\n" each), none longer than a value may be. */
function headersOf(bytes: number): Record<string, string> {
  const count = Math.ceil(bytes / 4_000);
  const headers: Record<string, string> = {};
  for (let index = 0; index < count; index += 1) {
    const name = `X-Fill-${index}`;
    const line = index < count - 1 ? Math.floor(bytes / count) : bytes - Math.floor(bytes / count) * (count - 1);
    headers[name] = 'a'.repeat(line - name.length - 4);
  }
  return headers;
}

describe('POST /api/screenshot: content that arrives after load', () => {
  it('draws a full page whose list arrives by fetch after load, to its last row', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/app`, fullPage: true });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ truncated: false, capturedHeight: LIST_ROWS * ROW_PX, report: { settled: true } });
    const pixels = await readPixels(response.body.screenshot);
    expect(pixels.height).toBe(LIST_ROWS * ROW_PX);
    expect(pixels.at(10, pixels.height - ROW_PX / 2)).toEqual([...BLUE]);
  });

  it('waits for a list fetched from a timer after load', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/app-timer` });

    // Assess: the first screen is rows, not the empty page
    expect(response.status).toBe(200);
    expect(response.body.report).toMatchObject({ settled: true });
    expect((await readPixels(response.body.screenshot)).count(GREEN)).toBeGreaterThan(1920 * 1000);
  });

  it('waits for a chart drawn from a timer after load', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/chart` });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.report).toMatchObject({ settled: true });
    expect((await readPixels(response.body.screenshot)).count(GREEN)).toBe(600 * 300);
  });

  it('is not held up by a timer given code as a string, which it cannot see run', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/string-timer` });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.report).toMatchObject({ settled: true });
    expect((await readPixels(response.body.screenshot)).count(GREEN)).toBe(400 * 200);
  });

  it('cuts an endless feed at the maximum height and says it was cut', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/feed`, fullPage: true });

    // Assess: rows to the bottom of the picture, which is as tall as a capture may be
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ truncated: true, capturedHeight: MAX_CAPTURE_HEIGHT_PX });
    const pixels = await readPixels(response.body.screenshot);
    expect(pixels.height).toBe(MAX_CAPTURE_HEIGHT_PX);
    expect(pixels.at(10, MAX_CAPTURE_HEIGHT_PX - 200)).toEqual([...GREEN]);
  });
});

describe('POST /api/screenshot: a page that never gets quiet', () => {
  it('photographs a page whose font never arrives, and reports the request pending', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/stalled-font` });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.report).toMatchObject({ status: 200, fontsReady: false, settled: false, pending: { changing: false } });
    expect(response.body.report.pending.requests).toBeGreaterThanOrEqual(1);
    expect((await readPixels(response.body.screenshot)).count(GREEN)).toBe(400 * 200);
  });

  it('photographs a page whose image never arrives, and reports it missing and pending', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/stalled-image` });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.report).toMatchObject({ images: { found: 1, loaded: 0 }, settled: false, pending: { requests: 1, changing: false } });
    expect((await readPixels(response.body.screenshot)).count(GREEN)).toBe(400 * 200);
  });

  it('photographs a chart that keeps ticking at the budget, and reports it still changing', async () => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/ticking` });

    // Assess: the chart is drawn, in one colour or the other
    expect(response.status).toBe(200);
    expect(response.body.report).toMatchObject({ settled: false, pending: { requests: 0, changing: true } });
    const pixels = await readPixels(response.body.screenshot);
    expect(pixels.count(GREEN) + pixels.count(BLUE)).toBe(600 * 300);
  });
});

describe('POST /api/screenshot: the page drawn is another origin', () => {
  it.each([
    ['a click on a link', { url: '/link', click: '#away' }],
    ['a redirect', { url: '/away' }],
  ])('after %s, answers with the drawn document: its URL and its status', async (_case, { url, ...options }) => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}${url}`, ...options });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ url: `${suite.pages.second}/elsewhere`, report: { status: 404 } });
    expect((await readPixels(response.body.screenshot)).count(RED)).toBeGreaterThan(1920 * 1000);
  });

  it('answers a cached capture with the drawn document too', async () => {
    // Prepare
    await capture({ url: `${suite.pages.origin}/away?cached` });

    // Act
    const response = await capture({ url: `${suite.pages.origin}/away?cached`, forceRefresh: false });

    // Assess
    expect(response.body).toMatchObject({ cached: true, url: `${suite.pages.second}/elsewhere`, report: { status: 404 } });
  });
});

describe('POST /api/screenshot: headers and cookies within their total', () => {
  it('sends headers of exactly the total bound to the target', async () => {
    // Prepare
    const headers = headersOf(MAX_CREDENTIAL_BYTES);

    // Act
    const response = await capture({ url: `${suite.pages.origin}/echo?bound`, headers });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.report).toMatchObject({ status: 200 });
    expect(suite.pages.heads.get('/echo')).toMatchObject(Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])));
  });

  it.each([
    ['headers', { headers: headersOf(MAX_CREDENTIAL_BYTES + 1) }],
    ['cookies', { headers: headersOf(MAX_CREDENTIAL_BYTES - 20), cookies: [{ name: 'session', value: 'abcdefghij' }] }],
  ])('refuses %s past the total with 400 naming the field', async (field, body) => {
    // Act
    const response = await capture({ url: `${suite.pages.origin}/echo?over`, ...body });

    // Assess
    expect(response.body).toEqual({
      ...expectedEnvelope(suite.runtime.url, 400, 'invalid_request'),
      error: `Invalid ${field}`,
      message: `Invalid ${field}`,
      hint: expect.stringMatching(new RegExp(`^${field}: headers and cookies together are at most ${MAX_CREDENTIAL_BYTES} bytes as sent`)),
    });
  });

  it("answers at once with the target's own refusal of a head it finds too large, in the report", async () => {
    // Act
    const response = await capture({ url: `${suite.pages.strict.origin}/`, headers: headersOf(6_000) });

    // Assess
    expect(response.status).toBe(200);
    expect(response.body.report).toMatchObject({ status: 431 });
    expect((await readPixels(response.body.screenshot)).count(RED)).toBe(1920 * 1080);
  });

  it.each(['constructor', '__proto__', 'prototype'])('refuses a header named %s with 400 rather than dropping it', async (name) => {
    // Act: raw JSON, so the key reaches the server as written
    const body = `{"url":"${suite.pages.origin}/echo?proto","headers":{"${name}":"x"}}`;
    const response = await call(suite.runtime.url, '/api/screenshot', { body, from: freshClient() });

    // Assess
    expect(response.body).toEqual({
      ...expectedEnvelope(suite.runtime.url, 400, 'invalid_request'),
      error: `Invalid headers.${name}`,
      message: `Invalid headers.${name}`,
      hint: expect.stringContaining(`headers.${name}: the key "${name}" cannot be taken as it is written`),
    });
  });
});
