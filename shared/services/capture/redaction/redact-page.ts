/**
 * Redaction on a loaded page: its text goes to the detectors in Node, what they find is covered
 * in the page, and the boxes come back in the picture's pixels. Run just before the screenshot.
 */
import type { Page } from 'puppeteer-core';
import { isSupportedCountry } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import type { Redaction, RedactKind } from '#shared/schemas/redaction.ts';
import { ignore } from '#shared/services/capture/deadline.ts';
import type { Deadline } from '#shared/services/capture/deadline.ts';
import { collectText, coverFindings, pageText } from '#shared/services/capture/redact-in-page.ts';
import { imageBoxes } from '#shared/services/capture/redaction/boxes.ts';
import { findSensitive } from '#shared/services/capture/redaction/detect.ts';
import { joinTexts, partsOf } from '#shared/services/capture/redaction/ranges.ts';

/** The region of a language tag (en-GB → GB) when it names a country libphonenumber knows. */
export function countryOfLanguage(lang: string): CountryCode | undefined {
  const region = /^[a-z]{2,3}[-_](?:[a-z]{4}[-_])?([a-z]{2})\b/i.exec(lang.trim())?.[1]?.toUpperCase();
  return region && isSupportedCountry(region) ? region : undefined;
}

export interface RedactInput {
  page: Page;
  kinds: readonly RedactKind[];
  /** What the picture covers, in document CSS px; null for the viewport. */
  area: { x: number; y: number; width: number; height: number } | null;
  scale: number;
  deadline: Deadline;
}

/** Finds and covers the kinds asked for; answers the boxes drawn, in image pixels. */
export async function redactPage(input: RedactInput): Promise<Redaction[]> {
  const { page, deadline } = input;
  const state = await deadline.race(page.evaluateHandle(collectText));
  try {
    const text = await deadline.race(page.evaluate(pageText, state));
    const joined = joinTexts(text);
    const country = countryOfLanguage(text.lang);
    const findings = await deadline.race(findSensitive(joined.text, input.kinds, country ? { defaultCountry: country } : {}));
    if (findings.length === 0) return [];
    const parts = findings.map((finding) => partsOf(finding, joined, text.texts));
    const covered = await deadline.race(page.evaluate(coverFindings, state, parts));
    return imageBoxes(
      covered.boxes,
      findings.map((finding) => finding.kind),
      input.area ?? covered.viewport,
      input.scale,
    );
  } finally {
    void state.dispose().catch(ignore);
  }
}
