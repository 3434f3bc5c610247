/**
 * Starting a run of release shots with plain inputs: which shots a run takes, what it writes,
 * counts and queues, and whose login a shot gets.
 */
import { describe, expect, it } from 'vitest';
import { NotFoundError } from '#shared/errors.ts';
import { createRateLimiter } from '#shared/rate-limiter.ts';
import type { Release } from '#shared/schemas/releases.ts';
import type { SourceApp } from '#shared/schemas/source-apps.ts';
import type { ShotMessage } from '#shared/schemas/shots.ts';
import { TILE_PX } from '#shared/services/capture/photograph.ts';
import { loginFor } from '#shared/services/shots/login.ts';
import { SCREEN_PX, nameOfUrl, planShots } from '#shared/services/shots/plan.ts';
import { startShotRun } from '#shared/services/shots/runs.ts';
import type { ShotItem } from '#shared/store/shots.ts';

const release = (sourceUrls: string[] = []): Release => ({
  id: '01900000-0000-7000-8000-000000000002',
  title: 'R',
  benefitStatement: 'B',
  sourceUrls,
  createdAt: '2026-11-01T00:00:00.000Z',
});

describe('planShots', () => {
  it("names the release's sourceUrls after host and path, numbering those that would share a name", () => {
    // Act
    const shots = planShots(release(['https://app.example.com/pricing?a=1', 'https://app.example.com/pricing?a=2', 'https://example.com/']), undefined);

    // Assess
    expect(shots.map((shot) => [shot.name, shot.from, shot.deviceType, shot.colorScheme])).toEqual([
      ['app.example.com-pricing', 'sourceUrls[0]', 'desktop', 'light'],
      ['app.example.com-pricing-2', 'sourceUrls[1]', 'desktop', 'light'],
      ['example.com', 'sourceUrls[2]', 'desktop', 'light'],
    ]);
  });

  it('multiplies every shot by the matrix, naming each copy by the dimensions the matrix gives', () => {
    // Act
    const shots = planShots(release(), {
      shots: [{ name: 'home', url: 'https://example.com/', deviceType: 'desktop', colorScheme: 'light', threshold: 0.1 } as never],
      matrix: { deviceTypes: ['desktop', 'mobile'], colorSchemes: ['dark'] },
    });

    // Assess
    expect(shots.map((shot) => [shot.name, shot.deviceType, shot.colorScheme])).toEqual([
      ['home-desktop-dark', 'desktop', 'dark'],
      ['home-mobile-dark', 'mobile', 'dark'],
    ]);
  });

  it.each([
    [
      'a name used twice, naming both shots',
      { shots: [shot('a'), shot('b'), shot('a')] },
      'Duplicate shot name a',
      'shots[2].name: "a" is also the name of shots[0]; give each shot its own name.',
    ],
    [
      'a viewport larger than a screen at its scale, naming the shot',
      { shots: [shot('a'), { ...shot('b'), viewport: { width: 3840, height: 2160 }, scale: 3 }] },
      'Invalid shots[1].viewport',
      'shots[1].viewport: 3840×2160 at scale 3 (desktop) is 11520×6480 image pixels; a screen is at most 8192 pixels a side and 31457280 in all.',
    ],
  ])('refuses %s with 400', (_case, request, message, hint) => {
    // Act + Assess
    expect(() => planShots(release(), request as never)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_request', message, hint }));
  });

  it("checks viewports against the capture's own largest picture of the screen", () => {
    expect(SCREEN_PX).toBe(TILE_PX);
  });

  it('keeps a name a URL cannot spell', () => {
    expect(nameOfUrl('https://[::1]:8080/')).toBe('1-8080');
  });
});

describe('startShotRun', () => {
  function runDeps(options: { unsent?: (messages: ShotMessage[]) => ShotMessage[]; known?: boolean; used?: number } = {}) {
    const written: ShotItem[] = [];
    const failed: { name: string; code: string }[] = [];
    const sent: ShotMessage[] = [];
    const counted: number[] = options.used === undefined ? [] : [options.used];
    const deps = {
      releases: { get: async () => (options.known === false ? undefined : release()) },
      shots: {
        putQueued: async (_ws: string, items: readonly ShotItem[]) => void written.push(...items),
        finishFailed: async (at: ShotMessage, _when: string, error: { code: string }) => {
          failed.push({ name: at.name, code: error.code });
          return true;
        },
      },
      queue: {
        enqueue: async (messages: readonly ShotMessage[]) => {
          sent.push(...messages);
          return options.unsent?.([...messages]) ?? [];
        },
      },
      limiter: createRateLimiter({
        incrementBelow: async (_key, limit, _expires, amount = 1) => {
          const total = (counted.at(-1) ?? 0) + amount;
          if (total > limit) return undefined;
          counted.push(total);
          return total;
        },
      }),
      publicBaseUrl: 'https://api.example.com',
      now: () => new Date(Date.UTC(2026, 10, 22, 12, 0, 0)),
    };
    return { deps, written, failed, sent, counted };
  }
  const input = (shots: ReturnType<typeof shot>[], plan: 'free' | 'pro' = 'pro') =>
    ({ workspaceId: 'ws_1', plan, releaseId: release().id, request: { shots } }) as never;

  it('queues one message per shot, each naming its shot and run, after writing them queued with asset ids of their own', async () => {
    // Prepare
    const { deps, written, sent } = runDeps();

    // Act
    const run = await startShotRun(deps, input([shot('a'), shot('b')]));

    // Assess
    expect(sent).toEqual(['a', 'b'].map((name) => ({ workspaceId: 'ws_1', releaseId: release().id, name, runId: run.runId })));
    expect(written.map((item) => [item.name, item.status, item.runId])).toEqual([
      ['a', 'queued', run.runId],
      ['b', 'queued', run.runId],
    ]);
    expect(new Set(written.flatMap((item) => [item.pictureAssetId, item.diffAssetId])).size).toBe(4);
  });

  it.each([
    ['an unknown release', { known: false }, 404, []],
    ['a run past the plan’s monthly shots', { used: 95 }, 429, [95]],
  ] as const)('writes, counts and queues nothing for %s', async (_case, options, status, count) => {
    // Prepare: free's 100 shots a month
    const { deps, written, sent, counted } = runDeps(options);

    // Act
    const refused = await startShotRun(deps, input(['a', 'b', 'c', 'd', 'e', 'f'].map(shot), 'free')).catch((error: unknown) => error);

    // Assess
    expect(refused).toMatchObject({ status });
    expect([written, sent, counted]).toEqual([[], [], count]);
  });

  it('answers 503 and marks failed the shots whose messages the queue refused, leaving the sent ones queued', async () => {
    // Prepare
    const { deps, failed, written } = runDeps({ unsent: (messages) => messages.slice(1) });

    // Act
    const refused = await startShotRun(deps, input([shot('a'), shot('b'), shot('c')])).catch((error: unknown) => error);

    // Assess
    expect(refused).toMatchObject({ status: 503, code: 'upstream_unavailable' });
    expect(written).toHaveLength(3);
    expect(failed).toEqual([
      { name: 'b', code: 'upstream_unavailable' },
      { name: 'c', code: 'upstream_unavailable' },
    ]);
  });
});

function shot(name: string) {
  return { name, url: 'https://example.com/', deviceType: 'desktop', colorScheme: 'light', threshold: 0.1 };
}

const app = (id: string, createdAt: string, allowedHosts: string[], secretReference?: string): SourceApp => ({
  id,
  name: `App ${id}`,
  allowedHosts,
  provider: 'generic',
  createdAt,
  ...(secretReference ? { secretReference } : {}),
});

describe('loginFor', () => {
  const login = JSON.stringify({ headers: { 'X-Pass': 'header-secret' }, cookies: [{ name: 'sid', value: 'cookie-secret' }] });
  const deps = (apps: SourceApp[], secrets: Record<string, string>) => ({
    sourceApps: { list: async () => apps },
    secrets: { read: async (reference: string) => secrets[reference], describe: (reference: string) => `the test store, as ${reference}` },
  });

  it("takes the login of the most recently registered app with a secret that lists the URL's origin, scheme and port included", async () => {
    // Prepare
    const apps = [
      app('old', '2026-01-01T00:00:00Z', ['https://app.example.com'], 'old-login'),
      app('new', '2026-02-01T00:00:00Z', ['https://app.example.com/'], 'new-login'),
      app('none', '2026-03-01T00:00:00Z', ['https://app.example.com']),
      app('http', '2026-04-01T00:00:00Z', ['http://app.example.com'], 'http-login'),
    ];
    const store = deps(apps, { 'old-login': login, 'new-login': login, 'http-login': login });

    // Act
    const found = await loginFor(store, 'ws', 'https://app.example.com/dashboard?x=1');
    const elsewhere = await loginFor(store, 'ws', 'https://app.example.com:8443/');

    // Assess
    expect(found).toEqual({ sourceAppId: 'new', credentials: { headers: { 'X-Pass': 'header-secret' }, cookies: [{ name: 'sid', value: 'cookie-secret' }] } });
    expect(elsewhere).toBeUndefined();
  });

  it('fails with 404 naming the app and the secret when the secret is missing', async () => {
    // Act
    const failure = await loginFor(deps([app('a', '2026-01-01T00:00:00Z', ['https://x.example'], 'gone')], {}), 'ws', 'https://x.example/').catch(
      (error) => error,
    );

    // Assess
    expect(failure).toBeInstanceOf(NotFoundError);
    expect(failure).toMatchObject({
      message: 'Login secret not found',
      hint: 'Source app App a (a) lists https://x.example and names the secret gone, which is missing: put it in the test store, as gone, then run the shot again.',
    });
  });

  it('fails with 400 naming where a malformed secret is wrong, never repeating its values', async () => {
    // Prepare
    const bad = JSON.stringify({ cookies: [{ name: 'sid', value: 'has space-secret' }] });

    // Act
    const failure = await loginFor(deps([app('a', '2026-01-01T00:00:00Z', ['https://x.example'], 'bad')], { bad }), 'ws', 'https://x.example/').catch(
      (error) => error,
    );

    // Assess
    expect(failure).toMatchObject({ status: 400, message: 'Login secret unusable', hint: expect.stringContaining('cookies[0].value is not valid') });
    expect(JSON.stringify(failure.hint)).not.toContain('has space');
  });

  it('claims no login when the secret holds none (only a webhook key)', async () => {
    // Act + Assess
    expect(
      await loginFor(deps([app('a', '2026-01-01T00:00:00Z', ['https://x.example'], 'hook')], { hook: '{"webhookSecret":"k"}' }), 'ws', 'https://x.example/'),
    ).toBeUndefined();
  });
});
