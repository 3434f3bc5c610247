/**
 * Redaction on a loaded page: its text goes to the detectors in Node, what they find is covered
 * in the page, and the boxes come back in the picture's pixels. Run just before the screenshot.
 */
import type { JSHandle, Page } from 'puppeteer-core';
import { isSupportedCountry } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import type { Redaction, RedactKind } from '#shared/schemas/redaction.ts';
import { CaptureTimeout, ignore } from '#shared/services/capture/deadline.ts';
import type { Deadline } from '#shared/services/capture/deadline.ts';
import { collectText, coverFindings, pageText } from '#shared/services/capture/redact-in-page.ts';
import type { FindingParts, PageText, PageTextState } from '#shared/services/capture/redact-in-page.ts';
import { imageBoxes } from '#shared/services/capture/redaction/boxes.ts';
import { findSensitive } from '#shared/services/capture/redaction/detect.ts';
import type { Finding } from '#shared/services/capture/redaction/detect.ts';
import { joinTexts, partsOf } from '#shared/services/capture/redaction/ranges.ts';

/** The region of a language tag (en-GB → GB) when it names a country libphonenumber knows. */
export function countryOfLanguage(lang: string): CountryCode | undefined {
  const region = /^[a-z]{2,3}[-_](?:[a-z]{4}[-_])?([a-z]{2})\b/i.exec(lang.trim())?.[1]?.toUpperCase();
  return region && isSupportedCountry(region) ? region : undefined;
}

/** The page's text as it was read ahead, and what the detectors found in it. */
export interface ReadAhead {
  /** Kept in the page, to be compared with the text just before the picture. */
  state: JSHandle<PageTextState>;
  parts: FindingParts[];
  kinds: RedactKind[];
}

export interface RedactInput {
  page: Page;
  kinds: readonly RedactKind[];
  /** What the picture covers, in document CSS px; null for the viewport. */
  area: { x: number; y: number; width: number; height: number } | null;
  scale: number;
  deadline: Deadline;
  /** The text read and searched while the capture waited for the page; used only if the text is still the same. */
  ahead?: Promise<ReadAhead | undefined>;
}

async function search(text: PageText, kinds: readonly RedactKind[]): Promise<{ findings: Finding[]; parts: FindingParts[] }> {
  const joined = joinTexts(text);
  const country = countryOfLanguage(text.lang);
  const findings = await findSensitive(joined.text, kinds, country ? { defaultCountry: country } : {});
  return { findings, parts: findings.map((finding) => partsOf(finding, joined, text.texts)) };
}

/**
 * Reads and searches the page's text without changing the page, so the capture can do it while it
 * waits for the page to settle. Undefined when that fails (the page navigated, say): the text is
 * then read again before the picture.
 */
export async function readAhead(page: Page, kinds: readonly RedactKind[]): Promise<ReadAhead | undefined> {
  let state: JSHandle<PageTextState> | undefined;
  try {
    state = await page.evaluateHandle(collectText);
    const { findings, parts } = await search(await page.evaluate(pageText, state), kinds);
    return { state, parts, kinds: findings.map((finding) => finding.kind) };
  } catch {
    void state?.dispose().catch(ignore);
    return undefined;
  }
}

/** Puppeteer's words for a handle of a page since navigated away. */
const OTHER_DOCUMENT = /only in the context they were created|Execution context was destroyed|Cannot find context/;

/**
 * Finds and covers the kinds asked for; answers the boxes drawn, in image pixels. With text read
 * ahead that is still the page's text (same texts, separators and language, so the detectors
 * would find the same), its findings are covered at once; otherwise the text is searched now.
 */
export async function redactPage(input: RedactInput): Promise<Redaction[]> {
  const { page, deadline } = input;
  const [state, early] = await deadline.race(Promise.all([page.evaluateHandle(collectText), input.ahead ?? Promise.resolve(undefined)]));
  try {
    if (early) {
      try {
        const covered = await deadline.race(page.evaluate(coverFindings, state, early.parts, early.state));
        if (covered) return imageBoxes(covered.boxes, early.kinds, input.area ?? covered.viewport, input.scale);
      } catch (error) {
        // The text read ahead was of a document since navigated away: search the text now.
        if (error instanceof CaptureTimeout || !OTHER_DOCUMENT.test((error as Error).message)) throw error;
      }
    }
    const text = await deadline.race(page.evaluate(pageText, state));
    const { findings, parts } = await deadline.race(search(text, input.kinds));
    if (findings.length === 0) return [];
    const covered = (await deadline.race(page.evaluate(coverFindings, state, parts)))!;
    return imageBoxes(
      covered.boxes,
      findings.map((finding) => finding.kind),
      input.area ?? covered.viewport,
      input.scale,
    );
  } finally {
    void state.dispose().catch(ignore);
    void early?.state.dispose().catch(ignore);
  }
}
