/** signIn (shared/services/capture/page-options.ts) against a stand-in page: where headers and cookies go, and a cookie the browser drops. */
import type { Page } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { HttpError } from '#shared/errors.ts';
import { signIn } from '#shared/services/capture/page-options.ts';
import type { Traffic } from '#shared/services/capture/traffic.ts';

const TARGET = new URL('https://app.example.com:8443/dashboard?tab=1');
const SECRET = 'TopSecretValue42';

/** A page whose cookie jar keeps what `keep` accepts, recording what was set; a Traffic recording its origin headers. */
function standIns(keep: (cookie: { name: string }) => boolean = () => true) {
  const set: Record<string, unknown>[] = [];
  const sent: { origin: string; headers: Record<string, string> }[] = [];
  const page = {
    async setCookie(...cookies: Record<string, unknown>[]) {
      set.push(...cookies);
    },
    async cookies() {
      return set.filter((cookie) => keep(cookie as { name: string }));
    },
  } as unknown as Page;
  const traffic = { sendToOrigin: (origin: string, headers: Record<string, string>) => sent.push({ origin, headers }) } as unknown as Traffic;
  return { page, traffic, set, sent };
}

describe('signIn', () => {
  it("hands the headers to the interception for the target's origin, and sets host-only cookies on its URL", async () => {
    // Prepare
    const { page, traffic, set, sent } = standIns();

    // Act
    await signIn(
      page,
      traffic,
      {
        headers: { Authorization: `Bearer ${SECRET}` },
        cookies: [
          { name: 's', value: SECRET },
          { name: 't', value: 'v', path: '/app', httpOnly: true },
        ],
      },
      TARGET,
    );

    // Assess
    expect(sent).toEqual([{ origin: 'https://app.example.com:8443', headers: { Authorization: `Bearer ${SECRET}` } }]);
    expect(set).toEqual([
      { name: 's', value: SECRET, path: '/', url: 'https://app.example.com:8443/' },
      { name: 't', value: 'v', path: '/app', httpOnly: true, url: 'https://app.example.com:8443/app' },
    ]);
    expect(set.some((cookie) => 'domain' in cookie)).toBe(false);
  });

  it('does nothing without credentials', async () => {
    // Prepare
    const { page, traffic, set, sent } = standIns();

    // Act
    await signIn(page, traffic, undefined, TARGET);

    // Assess
    expect([set, sent]).toEqual([[], []]);
  });

  it('answers 400 naming the cookie the browser dropped without a word, and not its value', async () => {
    // Prepare: the jar keeps all but the second
    const { page, traffic } = standIns((cookie) => cookie.name !== 'secure-one');

    // Act
    const error = await signIn(
      page,
      traffic,
      {
        cookies: [
          { name: 's', value: 'v' },
          { name: 'secure-one', value: SECRET, secure: true },
        ],
      },
      TARGET,
    ).catch((caught: unknown) => caught);

    // Assess
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_request', message: 'Invalid cookies[1]' });
    expect((error as HttpError).hint).toContain('app.example.com');
    expect((error as HttpError).hint).not.toContain(SECRET);
  });
});
