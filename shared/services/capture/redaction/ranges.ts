/** The page's texts joined into one string for the detectors, and findings in it mapped back to each text. */
import type { Finding } from '#shared/services/capture/redaction/detect.ts';
import type { FindingParts, PageText } from '#shared/services/capture/redact-in-page.ts';

export interface Joined {
  text: string;
  /** Where each of the page's texts starts in `text`. */
  starts: number[];
}

/** The texts with their separators between them (none before the first). */
export function joinTexts(page: Pick<PageText, 'texts' | 'separators'>): Joined {
  const starts: number[] = [];
  let text = '';
  page.texts.forEach((part, index) => {
    if (index > 0) text += page.separators[index] ?? '\n';
    starts.push(text.length);
    text += part;
  });
  return { text, starts };
}

/** The part of each text a finding covers; a finding that runs over a separator covers the texts on either side. */
export function partsOf(finding: Finding, joined: Joined, texts: readonly string[]): FindingParts {
  const parts: FindingParts['parts'] = [];
  // Texts are in order: the first one ending after the finding's start is the first touched.
  let index = joined.starts.findLastIndex((start) => start <= finding.start);
  for (index = Math.max(index, 0); index < texts.length && joined.starts[index]! < finding.end; index += 1) {
    const start = Math.max(finding.start - joined.starts[index]!, 0);
    const end = Math.min(finding.end - joined.starts[index]!, texts[index]!.length);
    if (end > start) parts.push({ target: index, start, end });
  }
  return { parts };
}
