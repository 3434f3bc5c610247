/**
 * The Releases tab in the real browser, signed in with a session cookie: two releases whose shots
 * CI ran through the API and the local worker took, listed with their statuses and what changed,
 * a diff shown, a shot opened as the source, exported and saved; a run followed while it runs;
 * the tab signed out; and the tab by keyboard at 375 px.
 */
import type { Page } from 'puppeteer-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { RELEASES_PAGE } from '#editor/src/io/releases.ts';
import { percentText } from '#editor/src/model/releases.ts';
import { SHOT_REDACTED_BY_RUN } from '#editor/src/model/redaction.ts';
import { saveScreenshot } from '../support/browser.ts';
import { countColour, exportDownload, pixelOf, shiftTotal, SLOW, text, violations, waitForStatus, expectColour } from './support/editor-page.ts';
import type { Opened } from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';
import { BOX, ciClient, createTeam, startReleasePages } from './support/release-runs.ts';
import type { ReleasePages } from './support/release-runs.ts';

/** The default padding around the picture at the Auto scale (1× for a desktop shot). */
const PADDING = 64;
const RED = [200, 0, 0] as const;

let pages: ReleasePages;
const { runtime, open } = useEditorSuite({
  name: 'releases',
  before: async () => {
    pages = await startReleasePages();
    // A held page keeps its shot running until the test lets it load: room for a loaded machine.
    Object.assign(process.env, { UNSAFE_TEST_LOOPBACK_PORTS: String(pages.port), CAPTURE_TIMEOUT_MS: '25000' });
    return () => pages.close();
  },
});

const team = { key: '', token: '', organizationId: '' };
const releases = { first: '', second: '' };
let pricingRatio = 0;

beforeAll(async () => {
  Object.assign(team, await createTeam(runtime()));
  const ci = ciClient(runtime(), team.key);
  releases.first = await ci.run('v1.0.0', [
    { name: 'plain', url: `${pages.origin}/plain` },
    { name: 'pricing', url: `${pages.origin}/changing` },
  ]);
  expect((await ci.settled(releases.first)).counts).toEqual({ queued: 0, running: 0, done: 2, failed: 0 });
  pages.box.colour = `rgb(${RED.join(',')})`;
  releases.second = await ci.run('v1.1.0', [
    { name: 'plain', url: `${pages.origin}/plain` },
    { name: 'pricing', url: `${pages.origin}/changing` },
    { name: 'broken', url: `${pages.origin}/changing`, selector: '#missing' },
  ]);
  const second = await ci.settled(releases.second);
  expect(second.counts).toEqual({ queued: 0, running: 0, done: 2, failed: 1 });
  pricingRatio = second.shots.find((shot: { name: string }) => shot.name === 'pricing').changes.ratio;
}, 240_000);

/** The editor signed in as the team's owner, on the Releases tab with the newest release's shots listed. */
async function openReleases(viewport?: { width: number; height: number }): Promise<Opened> {
  const opened = await open(runtime().url, viewport);
  await opened.context.setCookie({ name: 'easel.session_token', value: team.token, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' });
  await opened.page.reload();
  await opened.page.waitForSelector('html[data-ready="true"]');
  await opened.page.waitForSelector('#account-menu:not([hidden])');
  return opened;
}

const rows = (page: Page) =>
  page.$$eval('#shot-list > .shot', (items) =>
    items.map((item) => ({
      name: item.querySelector('.shot-name')?.textContent,
      status: item.querySelector('.shot-status')?.textContent,
      change: item.querySelector('.shot-change')?.textContent ?? '',
      failure: item.querySelector('.problem-message')?.textContent ?? '',
      buttons: [...item.querySelectorAll('button')].map((button) => button.textContent),
    })),
  );

const statusOf = (page: Page, name: string) => page.$eval(`#shot-list > .shot[data-name="${name}"] .shot-status`, (element) => element.textContent);

describe('the Releases tab', SLOW, () => {
  it('lists the shots with their status and what changed, shows a diff, and opens a shot that exports and saves', async () => {
    // Prepare
    const { page, downloads, consoleErrors } = await openReleases();

    // Act: the tab, the newest release chosen
    await page.click('#tab-releases');
    await page.waitForSelector('#shot-list > .shot[data-name="pricing"]');
    const listed = await page.$$eval('#release-select option', (options) => options.map((option) => [(option as HTMLOptionElement).value, option.textContent]));

    // Assess: newest first, the counts, and each shot in words
    expect(listed.map(([id]) => id)).toEqual([releases.second, releases.first]);
    expect(listed[0]![1]).toMatch(/^v1\.1\.0 · /);
    expect(await text(page, '#release-status')).toBe('3 shots: 2 done, 1 failed.');
    expect(await rows(page)).toEqual([
      { name: 'broken', status: 'Failed', change: '', failure: 'Nothing on the page matches the element selector.', buttons: [] },
      { name: 'plain', status: 'Done', change: 'No pixel changed since v1.0.0.', failure: '', buttons: ['Open', 'Show the diff'] },
      {
        name: 'pricing',
        status: 'Done',
        change: `${percentText(pricingRatio)} of pixels changed since v1.0.0.`,
        failure: '',
        buttons: ['Open', 'Show the diff'],
      },
    ]);
    expect(pricingRatio).toBeCloseTo((BOX.width * BOX.height) / (1920 * 1080), 3);

    // Act + Assess: the diff, red where the box changed colour (drawn at 1280 of its 1920 px)
    await page.click('#shot-list > .shot[data-name="pricing"] button[data-action="diff"]');
    await page.waitForSelector('#diff-canvas[data-drawn="true"]', SLOW);
    const drawn = (x: number, y: number) =>
      page.$eval(
        '#diff-canvas',
        (canvas, px, py) => [...(canvas as HTMLCanvasElement).getContext('2d')!.getImageData(px, py, 1, 1).data].slice(0, 3),
        Math.round((x * 2) / 3),
        Math.round((y * 2) / 3),
      );
    expectColour(await drawn(BOX.x + BOX.width / 2, BOX.y + BOX.height / 2), [255, 0, 0]);
    expect((await drawn(1000, 700))[1]).toBeGreaterThan(200);
    expect(await text(page, '#diff-title')).toBe('What changed in pricing (desktop, light)');
    await saveScreenshot(page, 'releases-diff');
    await page.click('#diff-close');

    // Act: open the shot
    await page.click('#shot-list > .shot[data-name="pricing"] button[data-action="open"]');
    await waitForStatus(page, '#release-status', 'Opened pricing', '#releases-error');

    // Assess: the source, its Recent entry, and Redact saying why not
    const readout = `Export: ${1920 + 2 * PADDING} × ${1080 + 2 * PADDING} px (1×)`;
    expect(await text(page, '#readout')).toBe(readout);
    const recent = await page.$$eval('#recent-list .recent-name', (names) => names.map((name) => name.textContent));
    expect(recent).toEqual([expect.stringMatching(/^shot pricing of v1\.1\.0 \(desktop, light, .+\)$/)]);
    expect(await page.$eval('#redact-button', (button) => [(button as HTMLButtonElement).disabled, (button as HTMLButtonElement).title])).toEqual([
      true,
      SHOT_REDACTED_BY_RUN,
    ]);
    await saveScreenshot(page, 'releases-opened');
    expect(await shiftTotal(page)).toBe(0);

    // Act + Assess: the export holds the shot's pixels, the box red where it was drawn
    const file = await exportDownload(page, downloads);
    expect(await sharp(file).metadata()).toMatchObject({ format: 'png', width: 1920 + 2 * PADDING, height: 1080 + 2 * PADDING });
    expectColour(await pixelOf(file, PADDING + BOX.x + BOX.width / 2, PADDING + BOX.y + BOX.height / 2), RED);
    expect(await countColour(file, RED, 8)).toBe(BOX.width * BOX.height);

    // Act + Assess: saved to the workspace like any capture, without a redaction check
    await page.click('#save-button');
    await waitForStatus(page, '#save-status', 'Saved to Alpha', '#save-error');
    const saved = await page.$eval('#save-result', (element) => (element as HTMLElement).dataset.assetId);
    await page.waitForSelector(`#asset-list li[data-asset-id="${saved}"] a`);
    expect(await violations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);

    // Act + Assess: a reload reopens it from the browser's keeping, still a shot
    await page.reload();
    await page.waitForSelector('#recent[data-loaded="true"]');
    await page.waitForFunction((want) => document.getElementById('readout')?.textContent === want, SLOW, readout);
    expect(await page.$eval('#redact-button', (button) => (button as HTMLButtonElement).title)).toBe(SHOT_REDACTED_BY_RUN);
  });

  it('reads a run again while its shot runs, and stops once it is done', async () => {
    // Prepare: a release whose one shot waits on a page held open
    const ci = ciClient(runtime(), team.key);
    const held = await ci.run('v1.2.0', [{ name: 'held', url: `${pages.origin}/held` }]);
    const { page } = await openReleases();
    const reads: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(`/api/v1/releases/${held}/shots`)) reads.push(request.url());
    });

    // Act: the tab shows the shot running, without a click
    await page.click('#tab-releases');
    await page.waitForFunction(() => document.querySelector('#shot-list > .shot[data-name="held"] .shot-status')?.textContent === 'Running', SLOW);
    const whileRunning = { polling: await page.$eval('#releases-body', (body) => (body as HTMLElement).dataset.polling), reads: reads.length };
    pages.release();
    await page.waitForFunction(() => document.querySelector('#shot-list > .shot[data-name="held"] .shot-status')?.textContent === 'Done', SLOW);

    // Assess: read more than once, then no read scheduled
    expect(await page.$eval('#release-select', (select) => (select as HTMLSelectElement).value)).toBe(held);
    expect(whileRunning.polling).toBe('true');
    expect(reads.length).toBeGreaterThan(whileRunning.reads);
    expect(await page.$eval('#releases-body', (body) => (body as HTMLElement).dataset.polling)).toBe('false');
    expect(await statusOf(page, 'held')).toBe('Done');
    expect(await text(page, '#release-status')).toBe('1 shot: 1 done.');
    // The row grew as the shot finished, long after the click: the list's fixed height kept the rest in place.
    expect(await shiftTotal(page)).toBe(0);
  });

  it('says to sign in when signed out, and opens the sign-in dialog', async () => {
    // Act
    const { page } = await open(runtime().url);
    await page.waitForSelector('#sign-in-button:not([hidden])');
    await page.click('#tab-releases');
    await page.click('#releases-sign-in');

    // Assess
    expect(await text(page, '#releases-access')).toBe('Sign in to see your organization’s releases and open their shots.');
    expect(await page.$eval('#releases-body', (body) => (body as HTMLElement).hidden)).toBe(true);
    expect(await page.$eval('#sign-in-dialog', (dialog) => (dialog as HTMLDialogElement).open)).toBe(true);
    expect(await text(page, '#sign-in-reason')).toBe('Sign in to see your organization’s releases and open their shots.');
  });

  it('works from the keyboard on a 375 px screen, every control labelled and inside the screen', async () => {
    // Prepare
    const { page } = await openReleases({ width: 375, height: 812 });

    // Act: the tab by End on the tab list, then on by Tab to a shot's Open
    await page.focus('#tab-capture');
    await page.keyboard.press('End');
    await page.waitForSelector('#shot-list > .shot');
    await page.select('#release-select', releases.second);
    await page.waitForSelector('#shot-list > .shot[data-name="broken"]');
    const reached: string[] = [];
    for (let step = 0; step < 12 && reached.at(-1) !== 'open pricing'; step += 1) {
      await page.keyboard.press('Tab');
      reached.push(
        await page.evaluate(() => {
          const focused = document.activeElement as HTMLElement;
          const row = focused.closest<HTMLElement>('.shot')?.dataset.name;
          return row ? `${focused.dataset.action} ${row}` : focused.id;
        }),
      );
    }
    await page.keyboard.press('Enter');
    await waitForStatus(page, '#release-status', 'Opened pricing', '#releases-error');

    // Assess: the tab list reached the tab; every control named, at least 24 px, inside the screen
    expect(reached.slice(0, 2)).toEqual(['release-select', 'shot-list']);
    expect(reached.at(-1)).toBe('open pricing');
    const controls = await page.$$eval('#panel-releases button, #panel-releases select, #tab-releases', (elements) =>
      elements
        .filter((element) => (element as HTMLElement).offsetParent !== null)
        .map((element) => {
          const box = element.getBoundingClientRect();
          const named = (element as HTMLSelectElement).labels?.length || element.getAttribute('aria-label') || (element.textContent ?? '').trim();
          return {
            id: element.id || element.getAttribute('aria-label'),
            named: Boolean(named),
            big: box.width >= 24 && box.height >= 24,
            inside: box.left >= 0 && box.right <= 375,
          };
        }),
    );
    expect(controls.filter((control) => !control.named || !control.big || !control.inside)).toEqual([]);
    expect(controls.length).toBeGreaterThan(5);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(375);
    await page.$eval('#release-select', (select) => select.scrollIntoView());
    await saveScreenshot(page, 'releases-375');
  });

  it('pages older releases in as the API pages them, newest first', async () => {
    // Prepare: more releases than a page holds
    const ci = ciClient(runtime(), team.key);
    const before = (await ci.api('/api/v1/releases?limit=100')).body.releases.length as number;
    for (let index = 1; index <= RELEASES_PAGE; index += 1) {
      expect((await ci.api('/api/v1/releases', { title: `bulk ${index}`, benefitStatement: 'More' })).status).toBe(201);
    }
    const all = (await ci.api('/api/v1/releases?limit=100')).body.releases.map((release: { id: string }) => release.id);
    const { page } = await openReleases();

    // Act
    await page.click('#tab-releases');
    await page.waitForSelector('#releases-more:not([hidden])');
    const firstPage = await page.$$eval('#release-select option', (options) => options.map((option) => (option as HTMLOptionElement).value));
    await page.click('#releases-more');
    await page.waitForSelector('#releases-more[hidden]');

    // Assess
    expect(firstPage).toEqual(all.slice(0, RELEASES_PAGE));
    expect(await page.$$eval('#release-select option', (options) => options.map((option) => (option as HTMLOptionElement).value))).toEqual(all);
    expect(all).toHaveLength(before + RELEASES_PAGE);
    expect(await page.$eval('#release-select', (select) => (select as HTMLSelectElement).value)).toBe(all[0]);
    expect(await text(page, '#release-status')).toBe(`${all.length} releases listed.`);
  });
});
