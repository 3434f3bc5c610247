/** The capture's report: what it did (consent, requests) and found (status, images, fonts, a bot challenge, what was pending). */
import type { Page } from 'puppeteer-core';
import type { CaptureReport } from '#shared/schemas/screenshot.ts';
import type { Deadline } from '#shared/services/capture/deadline.ts';
import { pageFacts } from '#shared/services/capture/in-page.ts';
import type { ChallengeSign } from '#shared/services/capture/in-page.ts';
import type { Clip } from '#shared/services/capture/photograph.ts';
import { pageState } from '#shared/services/capture/settle.ts';
import type { Traffic } from '#shared/services/capture/traffic.ts';

/** Bot managers' block and challenge pages by their marks (no npm package keeps a list); captcha widgets only on a page of little text. */
export const CHALLENGE_SIGNS: readonly ChallengeSign[] = [
  { name: 'cloudflare', title: 'Just a moment...' },
  { name: 'cloudflare', title: 'Attention Required! | Cloudflare' },
  {
    name: 'cloudflare',
    selector: '#challenge-form, #challenge-running, #cf-challenge-running, #cf-please-wait, .cf-browser-verification, #challenge-error-text',
  },
  { name: 'datadome', selector: 'iframe[src*="captcha-delivery.com"], iframe[src*="geo.captcha-delivery"]' },
  { name: 'perimeterx', selector: '#px-captcha, #px-captcha-wrapper' },
  { name: 'imperva', selector: 'iframe[src*="_Incapsula_Resource"], iframe[id="main-iframe"][src*="Incapsula"]' },
  { name: 'akamai', title: 'Access Denied', short: true },
  { name: 'aws-waf', selector: '#captcha-container script[src*="awswaf"], script[src*="captcha.awswaf.com"]', short: true },
  {
    name: 'captcha',
    selector:
      'iframe[src*="hcaptcha.com"], iframe[src*="/recaptcha/api2/anchor"], iframe[src*="challenges.cloudflare.com"], .h-captcha, .g-recaptcha, .cf-turnstile',
    short: true,
  },
];

export interface ReportInput {
  page: Page;
  traffic: Traffic;
  /** What the picture covers, in document CSS px; null for the viewport. */
  area: Clip | null;
  deadline: Deadline;
  consent?: CaptureReport['consent'];
  requests: CaptureReport['requests'];
}

/** Read from the page once the picture is taken; it has not changed since. */
export async function captureReport(input: ReportInput): Promise<CaptureReport> {
  const [facts, state] = await input.deadline.race(
    Promise.all([input.page.evaluate(pageFacts, input.area, [...CHALLENGE_SIGNS]), pageState(input.page, input.traffic)]),
  );
  const status = input.traffic.document?.status;
  return {
    ...(status !== undefined ? { status } : {}),
    ...(facts.challenge !== undefined ? { challenge: facts.challenge } : {}),
    ...(input.consent !== undefined ? { consent: input.consent } : {}),
    images: facts.images,
    fontsReady: facts.fontsReady,
    requests: input.requests,
    ...state,
  };
}
