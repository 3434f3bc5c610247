/** What a request adds to its page: headers and cookies before navigation, then its style sheet, a click and motion finished. */
import type { Page } from 'puppeteer-core';
import { InvalidRequestError, NotFoundError } from '#shared/errors.ts';
import { ignore } from '#shared/services/capture/deadline.ts';
import type { Deadline } from '#shared/services/capture/deadline.ts';
import { adoptStyleSheet, finishAnimations } from '#shared/services/capture/in-page.ts';
import type { CaptureCredentials, CaptureOptions } from '#shared/services/capture/options.ts';
import { SCREENSHOT_RESERVE_MS } from '#shared/services/capture/photograph.ts';
import { settle } from '#shared/services/capture/settle.ts';
import type { Traffic } from '#shared/services/capture/traffic.ts';

/** Headers go through the interception, so the guard still decides every request and no other origin gets them; cookies are host-only. */
export async function signIn(page: Page, traffic: Traffic, credentials: CaptureCredentials | undefined, target: URL): Promise<void> {
  if (credentials?.headers) traffic.sendToOrigin(target.origin, credentials.headers);
  if (!credentials?.cookies?.length) return;
  const cookies = credentials.cookies.map((cookie) => ({ ...cookie, path: cookie.path ?? '/', url: target.origin + (cookie.path ?? '/') }));
  const refused = (which: string) =>
    new InvalidRequestError(
      `Invalid ${which}`,
      `The browser did not keep ${which} for ${target.hostname}: a secure cookie needs an https URL (or a loopback one), and a __Host- or __Secure- name needs secure: true (__Host- also path /).`,
    );
  try {
    // The browser context's setCookie takes a domain, which would share them with subdomains.
    await page.setCookie(...cookies);
  } catch {
    // The browser's reason names no cookie; neither it nor a value is repeated here.
    throw refused('cookies');
  }
  // Some it drops without a word (a secure one for a plain http URL): read them back.
  const kept = await page.cookies(...new Set(cookies.map((cookie) => cookie.url)));
  const dropped = cookies.findIndex((cookie) => !kept.some((jar) => jar.name === cookie.name && jar.path === cookie.path));
  if (dropped >= 0) throw refused(`cookies[${dropped}]`);
}

/** Once the page is ready: the style sheet, then the click and whatever it starts, settled. */
export async function prepareView(page: Page, traffic: Traffic, options: CaptureOptions, deadline: Deadline): Promise<void> {
  if (options.css) await deadline.race(page.evaluate(adoptStyleSheet, options.css));
  if (options.click === undefined) return;
  await deadline.race(click(page, options.click));
  await deadline.race(settle(page, traffic, deadline.remaining() - SCREENSHOT_RESERVE_MS));
}

/** A real click (scrolled into view, at the element's centre); 404 naming the selector when nothing can be clicked. */
async function click(page: Page, selector: string): Promise<void> {
  const element = await page.$(selector);
  const unclickable = () =>
    new NotFoundError(
      'No element matches the click selector',
      `No element with a visible box matches click ${JSON.stringify(selector)} once the page is ready; check it against the page, or capture without click.`,
    );
  if (!element) throw unclickable();
  try {
    await element.click();
  } catch (error) {
    // Puppeteer's words for an element without a box to click; anything else is the browser's failure.
    if (/not clickable|not an Element|detached|not visible/i.test((error as Error).message)) throw unclickable();
    throw error;
  } finally {
    await element.dispose().catch(ignore);
  }
}

export async function stillMotion(page: Page, options: CaptureOptions, deadline: Deadline): Promise<void> {
  if (options.reducedMotion) await deadline.race(page.evaluate(finishAnimations));
}
