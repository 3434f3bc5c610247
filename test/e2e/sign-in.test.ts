/**
 * Signing in to the editor in the real browser: an e-mail code read from the runtime's outbox, a
 * passkey added and then used through Chromium's virtual authenticator (DevTools' WebAuthn
 * domain), an invitation accepted, the organization switched, an export saved and listed with its
 * download link, sign-out, and a session already in the browser recognised when the page opens.
 * The page is opened at localhost: Chromium refuses WebAuthn on 127.0.0.1 ("This is an invalid domain").
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import * as admin from '#shared/services/identity-admin.ts';
import { connect } from '#infra/admin/connection.ts';
import { saveScreenshot } from '../support/browser.ts';
import { codeFrom, mailCount } from '../support/sign-in.ts';
import { SLOW, text, violations, waitForStatus } from './support/editor-page.ts';
import { useEditorSuite } from './support/editor-suite.ts';

let image = '';
let outbox = '';
let alpha = '';
let beta = '';
const { runtime, workdir, open: openEditor } = useEditorSuite({ name: 'sign-in' });
const localhost = () => runtime().url.replace('127.0.0.1', 'localhost');

beforeAll(async () => {
  outbox = runtime().env.EMAIL_OUTBOX!;
  const db = connect(runtime().env);
  const deps = { store: db.store };
  await admin.createUser(deps, { email: 'ada@example.com', name: 'Ada Lovelace' });
  alpha = (await admin.createOrganization(deps, { name: 'Alpha', plan: 'pro', ownerUserId: 'ada@example.com' })).organization.organizationId;
  await admin.createUser(deps, { email: 'bob@example.com', name: 'Bob Builder' });
  beta = (await admin.createOrganization(deps, { name: 'Beta', plan: 'free', ownerUserId: 'bob@example.com' })).organization.organizationId;
  await admin.invite(deps, { organizationId: beta, email: 'ada@example.com', role: 'admin', invitedBy: 'bob@example.com' });
  await admin.invite(deps, { organizationId: alpha, email: 'newcomer@example.com', role: 'member', invitedBy: 'ada@example.com' });
  // Users of their own for the menu's passkey and session tests: each address may ask for 5 codes an hour.
  await admin.createUser(deps, { email: 'grace@example.com', name: 'Grace Hopper' });
  await admin.createUser(deps, { email: 'hal@example.com', name: 'Hal Abelson' });
  const gamma = (await admin.createOrganization(deps, { name: 'Gamma', plan: 'pro', ownerUserId: 'grace@example.com' })).organization.organizationId;
  await admin.addMember(deps, { organizationId: gamma, user: 'hal@example.com', role: 'member' });
  db.close();
  image = join(workdir(), 'small.png');
  await writeFile(
    image,
    await sharp({ create: { width: 200, height: 120, channels: 4, background: { r: 20, g: 160, b: 90, alpha: 1 } } })
      .png()
      .toBuffer(),
  );
});

/** Signs in through the dialog with the code the outbox received. */
async function signInWithCode(page: Page, email: string, name?: string): Promise<void> {
  const before = mailCount(outbox, email);
  await page.click('#sign-in-button');
  await page.type('#sign-in-email', email);
  await page.click('#email-submit');
  await page.waitForSelector('#code-form:not([hidden])');
  await page.type('#sign-in-code', await codeFrom(outbox, email, before));
  if (name) await page.type('#sign-in-name', name);
  await page.click('#code-submit');
  await page.waitForFunction(
    () => !(document.getElementById('sign-in-dialog') as HTMLDialogElement).open || document.getElementById('sign-in-error')?.textContent !== '',
  );
  expect(await text(page, '#sign-in-error')).toBe('');
}

/** Opens the account menu, whether or not the page opened it already. */
async function openMenu(page: Page): Promise<void> {
  if (!(await page.$eval('#account-menu', (menu) => (menu as HTMLDetailsElement).open))) await page.click('#account-button');
}

const label = (page: Page) => page.$eval('#account-label', (element) => element.textContent ?? '');
const waitForLabel = (page: Page, expected: string) =>
  page.waitForFunction((want) => document.getElementById('account-label')?.textContent === want, { timeout: 30_000 }, expected);

describe('signing in to the editor', SLOW, () => {
  it('signs in with an e-mail code, adds a passkey, signs out, and signs in again with the passkey', async () => {
    // Prepare: a virtual platform authenticator with user verification, as a laptop's
    const { page, consoleErrors } = await openEditor(localhost());
    const cdp = await page.createCDPSession();
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });

    // Act: e-mail code
    await signInWithCode(page, 'ada@example.com');
    await waitForLabel(page, 'Ada Lovelace · Alpha');
    // Act: add a passkey from the account menu
    await openMenu(page);
    await page.click('#add-passkey');
    await waitForStatus(page, '#account-menu-status', 'Passkey added', '#account-error');
    const passkeys = await page.$$eval('#passkey-list li', (items) => items.length);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    // Act: sign out, then the passkey
    await page.click('#sign-out');
    await page.waitForSelector('#sign-in-button:not([hidden])');
    const leftInMenu = await page.$$eval('#passkey-list li, #session-list li', (items) => items.length);
    const signedOut = await page.evaluate(() => fetch('/api/v1/auth/session', { credentials: 'include' }).then((response) => response.json()));
    await page.click('#sign-in-button');
    await page.click('#passkey-sign-in');
    await waitForStatus(page, '#sign-in-status', 'Signed in with a passkey.', '#sign-in-error');
    await waitForLabel(page, 'Ada Lovelace · Alpha');

    // Assess
    expect(passkeys).toBe(1);
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost', signCount: 1 });
    // The next person to sign in on this page does not see the last one's passkeys and sessions.
    expect(leftInMenu).toBe(0);
    expect(signedOut).toEqual({ signedIn: false });
    const session = await page.evaluate(() => fetch('/api/v1/auth/session', { credentials: 'include' }).then((response) => response.json()));
    expect(session).toMatchObject({ signedIn: true, user: { email: 'ada@example.com' }, session: { method: 'passkey' } });
    // The cookie is HttpOnly: the page cannot read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(consoleErrors).toEqual([]);
    expect(await violations(page)).toEqual([]);
  });

  it('removes a passkey from the account menu, after which it no longer signs in', async () => {
    // Prepare: signed in, with a passkey added from the menu
    const { page, consoleErrors } = await openEditor(localhost());
    const cdp = await page.createCDPSession();
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    await signInWithCode(page, 'grace@example.com');
    await waitForLabel(page, 'Grace Hopper · Gamma');
    await openMenu(page);
    await page.click('#add-passkey');
    await waitForStatus(page, '#account-menu-status', 'Passkey added', '#account-error');
    await page.waitForSelector('#passkey-list li');
    const listed = await text(page, '#passkey-list li');

    // Act
    await page.click('#passkey-list li button');
    await waitForStatus(page, '#account-menu-status', 'Passkey removed', '#account-error');
    const left = await page.$$eval('#passkey-list li', (items) => items.length);
    const stored = await page.evaluate(() => fetch('/api/v1/auth/passkeys', { credentials: 'include' }).then((response) => response.json()));
    await page.click('#sign-out');
    await page.waitForSelector('#sign-in-button:not([hidden])');
    await page.click('#sign-in-button');
    await page.click('#passkey-sign-in');
    await page.waitForFunction(() => document.getElementById('sign-in-error')?.textContent !== '', { timeout: 30_000 });
    await saveScreenshot(page, 'sign-in-removed-passkey');

    // Assess
    expect(listed).toMatch(/^Passkey on Chrome \d+ on Linux, last used never Remove$/);
    expect(left).toBe(0);
    expect(stored).toEqual({ passkeys: [] });
    // The authenticator still holds the credential: the server no longer knows it.
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials).toHaveLength(1);
    expect(await page.$$eval('#sign-in-error p', (lines) => lines.map((line) => line.textContent))).toEqual([
      'This passkey is not on any Easel account.',
      'It may have been removed from yours: sign in with an e-mail code, then add it again from the account menu.',
      expect.stringMatching(/^401 unauthorized: Authentication required\. This passkey is not registered with this Easel /),
    ]);
    expect(await text(page, '#sign-in-status')).toBe('');
    expect(await page.$eval('#sign-in-dialog', (dialog) => (dialog as HTMLDialogElement).open)).toBe(true);
    expect(await page.$eval('#sign-in-button', (button) => (button as HTMLButtonElement).hidden)).toBe(false);
    expect(consoleErrors.filter((line) => !line.includes('401'))).toEqual([]);
  });

  it('ends another session of the user from the account menu, which signs that browser out', async () => {
    // Prepare: the same user signed in in two browsers
    const laptop = await openEditor(runtime().url);
    await signInWithCode(laptop.page, 'hal@example.com');
    await waitForLabel(laptop.page, 'Hal Abelson · Gamma');
    const phone = await openEditor(runtime().url);
    await signInWithCode(phone.page, 'hal@example.com');
    await waitForLabel(phone.page, 'Hal Abelson · Gamma');
    await openMenu(phone.page);
    await phone.page.waitForFunction(() => document.querySelectorAll('#session-list li').length === 2);
    const before = await phone.page.$$eval('#session-list li', (items) => items.map((item) => item.textContent ?? ''));

    // Act
    await phone.page.click('#session-list li button');
    await waitForStatus(phone.page, '#account-menu-status', 'Session ended', '#account-error');
    await saveScreenshot(phone.page, 'account-menu-session-ended');
    const after = await phone.page.$$eval('#session-list li', (items) => items.map((item) => item.textContent ?? ''));
    await laptop.page.reload();
    await laptop.page.waitForSelector('#sign-in-button:not([hidden])');

    // Assess
    expect(before.filter((item) => item.includes('(this browser)'))).toHaveLength(1);
    expect(before.filter((item) => item.endsWith(' End'))).toHaveLength(1);
    expect(after).toEqual([expect.stringMatching(/^Chrome \d+ on Linux \(this browser\), signed in .+, last seen .+ $/)]);
    expect(await label(phone.page)).toBe('Hal Abelson · Gamma');
    expect(await laptop.page.evaluate(() => fetch('/api/v1/auth/session', { credentials: 'include' }).then((response) => response.json()))).toEqual({
      signedIn: false,
    });
  });

  it('accepts an invitation, switches organization, saves an export there, lists it with its link, and signs out', async () => {
    // Prepare
    const { page } = await openEditor(localhost());
    await page.click('#tab-image');
    await (await page.$('input#image-file'))!.uploadFile(image);
    await waitForStatus(page, '#image-status', 'Opened', '#source-error');

    // Act: Save while signed out opens the sign-in dialog
    await page.click('#save-button');
    const askedToSignIn = await page.$eval('#sign-in-dialog', (dialog) => (dialog as HTMLDialogElement).open);
    await page.click('#sign-in-close');
    await signInWithCode(page, 'ada@example.com');
    await waitForLabel(page, 'Ada Lovelace · Alpha');
    await openMenu(page);
    await page.waitForSelector('#invitation-list button');
    const invitation = await text(page, '#invitation-list li');
    await page.click('#invitation-list button');
    await waitForLabel(page, 'Ada Lovelace · Beta');
    const organizations = await page.$$eval('#organization-switcher option', (options) => options.map((option) => option.textContent));
    await page.select('#organization-switcher', alpha);
    await waitForLabel(page, 'Ada Lovelace · Alpha');
    await page.select('#organization-switcher', beta);
    await waitForLabel(page, 'Ada Lovelace · Beta');
    await page.click('#account-button');
    await page.click('#save-button');
    await waitForStatus(page, '#save-status', 'Saved to Beta', '#save-error');
    await page.waitForSelector('#asset-list li a');
    const listed = await page.$eval('#asset-list li', (item) => ({ id: (item as HTMLElement).dataset.assetId, href: item.querySelector('a')!.href }));
    const file = await fetch(listed.href);

    // Assess
    expect(askedToSignIn).toBe(true);
    expect(invitation).toBe('Beta, as admin (from Bob Builder) Accept');
    expect(organizations).toEqual(['Alpha (owner)', 'Beta (admin)']);
    expect(await text(page, '#assets-heading')).toBe('Saved in Beta');
    expect(listed.id).toBe(await page.$eval('#save-result', (element) => (element as HTMLElement).dataset.assetId));
    expect(file.status).toBe(200);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).format).toBe('png');
    expect(await text(page, '#auth-status')).toBe('Saves to Beta as Ada Lovelace.');

    // Act + Assess: sign out
    await openMenu(page);
    await page.click('#sign-out');
    await page.waitForSelector('#sign-in-button:not([hidden])');
    expect(await text(page, '#auth-status')).toBe('Sign in to save exports to your workspace.');
    expect(await page.$eval('#assets-heading', (element) => (element as HTMLElement).hidden)).toBe(true);
  });

  it('signs an invited newcomer up with a code and shows the invitation at once', async () => {
    // Act
    const { page } = await openEditor(runtime().url);
    await signInWithCode(page, 'newcomer@example.com', 'Nia Newcomer');
    await waitForLabel(page, 'Nia Newcomer');

    // Assess: no organization yet, the menu open on the invitation; passkeys refused on an IP address, said why
    expect(await page.$eval('#account-menu', (menu) => (menu as HTMLDetailsElement).open)).toBe(true);
    expect(await text(page, '#invitation-list li')).toBe('Alpha, as member (from Ada Lovelace) Accept');
    expect(await text(page, '#auth-status')).toMatch(/^Accept an invitation/);
    await page.click('#invitation-list button');
    await waitForLabel(page, 'Nia Newcomer · Alpha');
    await openMenu(page);
    await page.click('#sign-out');
    await page.waitForSelector('#sign-in-button:not([hidden])');
    await page.click('#sign-in-button');
    expect(await page.$eval('#passkey-sign-in', (button) => (button as HTMLButtonElement).disabled)).toBe(true);
    expect(await text(page, '#passkey-note')).toBe(`Passkeys need a name, not an IP address: open ${localhost()}/.`);
  });

  it('recognises a session already in the browser when the page opens', async () => {
    // Prepare: a session cookie set before the page loads
    const db = connect(runtime().env);
    const { token } = await admin.createSession({ store: db.store }, { user: 'bob@example.com', organizationId: beta });
    db.close();
    const { page, context } = await openEditor(runtime().url);
    await context.setCookie({ name: 'easel.session_token', value: token, domain: '127.0.0.1', path: '/', httpOnly: true, sameSite: 'Lax' });

    // Act
    await page.reload();
    await waitForLabel(page, 'Bob Builder · Beta');

    // Assess
    expect(await label(page)).toBe('Bob Builder · Beta');
    expect(await page.$eval('#sign-in-button', (button) => (button as HTMLButtonElement).hidden)).toBe(true);
  });
});
