/** The editor's Releases tab in Node: who may see it, how it reads again while shots run, and each shot in words and as a source. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { explainShot } from '#editor/src/io/shot-problem.ts';
import { redactAvailability, SHOT_REDACTED_BY_RUN } from '#editor/src/model/redaction.ts';
import {
  appendReleases,
  changeText,
  countsText,
  percentText,
  POLL_DELAYS_MS,
  pollDelay,
  progressKey,
  releasesAccess,
  SHOT_STATUSES,
  shotSource,
  statusText,
  unsettled,
} from '#editor/src/model/releases.ts';
import type { ReleaseItem, ShotItem } from '#editor/src/model/releases.ts';
import type { Release } from '#shared/schemas/releases.ts';
import { SHOT_STATUSES as API_STATUSES } from '#shared/schemas/shots.ts';
import type { ShotView } from '#shared/schemas/shots.ts';

const shot = (fields: Partial<ShotItem> = {}): ShotItem => ({
  name: 'pricing',
  url: 'https://app.example.com/pricing',
  deviceType: 'desktop',
  colorScheme: 'light',
  status: 'done',
  runId: 'run-1',
  queuedAt: '2026-12-01T10:00:00.000Z',
  ...fields,
});

const changes = (fields: Partial<NonNullable<ShotItem['changes']>> = {}) => ({
  baseline: { releaseId: 'rel-1' },
  ratio: 0.0321,
  pixels: 66_586,
  width: 1920,
  height: 1080,
  sizeChanged: false,
  diffAssetId: 'diff-1',
  ...fields,
});

describe('the shapes the tab reads', () => {
  it('reads what the API answers: its statuses, a shot and a release', () => {
    expect(SHOT_STATUSES).toEqual(API_STATUSES);
    expectTypeOf<ShotView>().toExtend<ShotItem>();
    expectTypeOf<Release>().toExtend<ReleaseItem>();
  });
});

describe('releasesAccess', () => {
  it('shows the list to a member whose role reads releases', () => {
    expect(releasesAccess({ state: 'signed-in', organization: 'Alpha', permissions: ['artifact:read'] })).toEqual({
      open: true,
      text: 'Releases of Alpha, newest first.',
      offerSignIn: false,
    });
  });

  it('offers sign-in only to someone signed out', () => {
    expect(releasesAccess({ state: 'signed-out' })).toEqual({
      open: false,
      text: 'Sign in to see your organization’s releases and open their shots.',
      offerSignIn: true,
    });
  });

  it.each([
    [{ state: 'checking' as const }, 'Checking sign-in…'],
    [{ state: 'unavailable' as const }, 'Releases are unavailable: the API did not say who is signed in.'],
    [{ state: 'signed-in' as const }, 'Accept an invitation or choose an organization (account menu) to see its releases.'],
    [
      { state: 'signed-in' as const, organization: 'Alpha', permissions: ['upload:sign'] },
      'Your role in Alpha cannot read releases (artifact:read): choose another organization, or ask an owner.',
    ],
  ])('keeps the list closed for %o, saying why', (account, text) => {
    expect(releasesAccess(account)).toEqual({ open: false, text, offerSignIn: false });
  });
});

describe('reading again while shots run', () => {
  it('waits longer after each read that saw nothing move, up to 15 s', () => {
    expect([0, 1, 2, 3, 4, 5, 50].map(pollDelay)).toEqual([1000, 2000, 4000, 8000, 15000, 15000, 15000]);
    expect(pollDelay(-1)).toBe(POLL_DELAYS_MS[0]);
  });

  it('stops once no shot is queued or running', () => {
    expect(unsettled({ queued: 0, running: 1, done: 2, failed: 0 })).toBe(true);
    expect(unsettled({ queued: 1, running: 0, done: 0, failed: 0 })).toBe(true);
    expect(unsettled({ queued: 0, running: 0, done: 2, failed: 1 })).toBe(false);
  });

  it('sees a shot move when its status, try or run changes, and nothing else', () => {
    const before = progressKey([shot({ status: 'running', attempts: 1 })]);
    expect(progressKey([shot({ status: 'running', attempts: 1, startedAt: 'later' } as Partial<ShotItem>)])).toBe(before);
    for (const moved of [shot({ status: 'done' }), shot({ status: 'running', attempts: 2 }), shot({ status: 'running', attempts: 1, runId: 'run-2' })]) {
      expect(progressKey([moved])).not.toBe(before);
    }
  });
});

describe('a shot in words', () => {
  it('counts the shots by status', () => {
    expect(countsText({ queued: 1, running: 0, done: 2, failed: 1 })).toBe('4 shots: 1 queued, 2 done, 1 failed.');
    expect(countsText({ queued: 0, running: 1, done: 0, failed: 0 })).toBe('1 shot: 1 running.');
    expect(countsText({ queued: 0, running: 0, done: 0, failed: 0 })).toMatch(/^No shots in this release yet/);
  });

  it('names each status, and a running shot past its first try', () => {
    expect(SHOT_STATUSES.map((status) => statusText({ status }))).toEqual(['Queued', 'Running', 'Done', 'Failed']);
    expect(statusText({ status: 'running', attempts: 2 })).toBe('Running, try 2');
  });

  it.each([
    [0, '0 %'],
    [0.00004, '< 0.01 %'],
    [0.0321, '3.21 %'],
    [0.5, '50 %'],
    [1, '100 %'],
  ])('gives a share of %d as %s', (ratio, text) => {
    expect(percentText(ratio)).toBe(text);
  });

  it('says what changed since the release compared with, by its title', () => {
    const titles = (id: string) => (id === 'rel-1' ? 'v2.3.0' : undefined);
    expect(changeText(shot({ changes: changes() }), titles)).toBe('3.21 % of pixels changed since v2.3.0.');
    expect(changeText(shot({ changes: changes({ sizeChanged: true }) }), titles)).toBe('3.21 % of pixels changed since v2.3.0, and its size.');
    expect(changeText(shot({ changes: changes({ ratio: 0, pixels: 0 }) }), titles)).toBe('No pixel changed since v2.3.0.');
    expect(changeText(shot({ changes: changes({ baseline: { releaseId: 'older' } }) }), titles)).toBe('3.21 % of pixels changed since an earlier release.');
    expect(changeText(shot(), titles)).toBe('First of its name: nothing earlier to compare with.');
    expect(changeText(shot({ status: 'running' }), titles)).toBe('');
  });

  it('explains a failed shot as its capture, with what to do in its run', () => {
    expect(explainShot({ status: 404, code: 'not_found', message: 'Element not found' })).toEqual({
      message: 'Nothing on the page matches the element selector.',
      advice: 'Change the shot in its run (Details names what), then run it again.',
    });
    expect(explainShot({ status: 408, code: 'upstream_timeout', message: 'Target page too slow' })).toEqual({
      message: 'The page took too long to load.',
      advice: 'Run the release’s shots again.',
    });
  });

  it('tells a missing or unusable login secret apart from a selector matching nothing', () => {
    expect(explainShot({ status: 404, code: 'not_found', message: 'Login secret not found' }).message).toBe(
      'The login this page needs is missing from the secret store.',
    );
    expect(explainShot({ status: 400, code: 'invalid_request', message: 'Login secret unusable' }).message).toBe(
      'The login secret for this page is not in the shape Easel reads.',
    );
  });
});

describe('a shot as the source', () => {
  it('is named by its shot, release, framing and time, and framed by the page drawn', () => {
    expect(shotSource(shot({ drawnUrl: 'https://app.example.com/welcome' }), { title: 'v2.4.0' }, '1 Dec 2026, 10:01')).toEqual({
      kind: 'shot',
      density: 1,
      title: 'app.example.com/welcome',
      description: 'shot pricing of v2.4.0 (desktop, light, 1 Dec 2026, 10:01)',
    });
  });

  it('lays a phone shot out at half its pixels, as a phone capture', () => {
    expect(shotSource(shot({ deviceType: 'mobile', colorScheme: 'dark' }), { title: 'v2' }, 'now')).toMatchObject({
      density: 2,
      title: 'app.example.com/pricing',
      description: 'shot pricing of v2 (mobile, dark, now)',
    });
  });

  it('cannot be redacted again in the editor, and says where it is', () => {
    expect(redactAvailability({ kind: 'shot' })).toEqual({ enabled: false, reason: SHOT_REDACTED_BY_RUN });
  });
});

describe('appendReleases', () => {
  it('adds the next page after the ones shown, each release once', () => {
    const release = (id: string) => ({ id, title: id, createdAt: '2026-12-01T10:00:00.000Z' });
    expect(appendReleases([release('c'), release('b')], [release('b'), release('a')]).map(({ id }) => id)).toEqual(['c', 'b', 'a']);
  });
});
