/**
 * Redaction of a loaded page, the area's one entry: read what the page draws, find what is
 * sensitive in it, and paint solid boxes over it into the picture's pixels as the picture is made.
 */
import type { Page } from 'puppeteer-core';
import { isSupportedCountry } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import type { Redaction, RedactKind } from '#shared/schemas/redaction.ts';
import type { UnreadMedia } from '#shared/schemas/screenshot.ts';
import { ignore } from '#shared/services/capture/deadline.ts';
import type { Deadline } from '#shared/services/capture/deadline.ts';
import { findingRects, imageBoxes, placePart, unionOf } from '#shared/services/capture/redaction/cover.ts';
import type { CoveredFinding } from '#shared/services/capture/redaction/cover.ts';
import { findSensitive } from '#shared/services/capture/redaction/detect.ts';
import type { Finding } from '#shared/services/capture/redaction/detect.ts';
import { readSnapshots } from '#shared/services/capture/redaction/drawn-text.ts';
import type { Drawn, Piece } from '#shared/services/capture/redaction/drawn-text.ts';
import { NO_INK } from '#shared/services/capture/redaction/ink.ts';
import { joinPieces, partsOf } from '#shared/services/capture/redaction/lines.ts';
import type { PiecePart } from '#shared/services/capture/redaction/lines.ts';
import type { Cover } from '#shared/services/capture/redaction/paint.ts';
import { imagesDrawn, measureRanges, PageReader } from '#shared/services/capture/redaction/page-reads.ts';
import type { RangeRequest } from '#shared/services/capture/redaction/page-reads.ts';
import { intersect } from '#shared/services/capture/redaction/snapshot-tree.ts';
import type { Rect } from '#shared/services/capture/redaction/snapshot-tree.ts';

/** The region of a language tag (en-GB → GB) when it names a country libphonenumber knows. */
export function countryOfLanguage(lang: string): CountryCode | undefined {
  const region = /^[a-z]{2,3}[-_](?:[a-z]{4}[-_])?([a-z]{2})\b/i.exec(lang.trim())?.[1]?.toUpperCase();
  return region && isSupportedCountry(region) ? region : undefined;
}

/** A text searched, and what was found in it. */
export interface Searched {
  text: string;
  findings: Finding[];
}

/** The page's drawn text as it was read ahead, and its findings; the reader is the one the redaction goes on with. */
export interface ReadAhead extends Searched {
  reader: PageReader;
}

function search(text: string, lang: string, kinds: readonly RedactKind[]): Promise<Finding[]> {
  const country = countryOfLanguage(lang);
  return findSensitive(text, kinds, country ? { defaultCountry: country } : {});
}

/**
 * Reads and searches what the page draws, without changing it, so the capture can do it while it
 * waits for the page to settle. Undefined when that fails: the page is then read again before the picture.
 */
export async function readAhead(page: Page, kinds: readonly RedactKind[]): Promise<ReadAhead | undefined> {
  let reader: PageReader | undefined;
  try {
    reader = await PageReader.open(page);
    const drawn = readSnapshots(await reader.snapshot());
    const { text } = joinPieces(drawn.pieces);
    return { reader, text, findings: await search(text, drawn.lang, kinds) };
  } catch {
    void reader?.close().catch(ignore);
    return undefined;
  }
}

/** One read of the page: what is found in what it draws, where (document CSS px), and what it draws that cannot be read. */
interface Plan extends Searched {
  covered: CoveredFinding[];
  unread: UnreadMedia;
  /** The alt texts shown by broken images, searched apart. */
  alts: Searched;
}

/** Searches `text` unless it is the text already searched. */
const searched = async (text: string, lang: string, kinds: readonly RedactKind[], known?: Searched): Promise<Searched> =>
  known?.text === text ? known : { text, findings: text ? await search(text, lang, kinds) : [] };

/** The findings of a text's pieces as rects, parts of a line measured in the page where a piece is not covered whole. */
async function rectsOf(reader: PageReader, drawn: Drawn, pieces: readonly Piece[], found: Searched): Promise<CoveredFinding[]> {
  const joined = joinPieces(pieces);
  const parts = found.findings.map((finding) => partsOf(joined, pieces, finding.start, finding.end));
  const requests: RangeRequest[] = [];
  const asked = new Map<PiecePart, number>();
  for (const part of parts.flat()) {
    const piece = pieces[part.piece]!;
    if (piece.whole || piece.backendNodeId === undefined) continue;
    asked.set(part, requests.length);
    requests.push({
      document: piece.document,
      backendNodeId: piece.backendNodeId,
      start: piece.start + part.start,
      end: piece.start + part.end,
      boxStart: piece.start,
      boxEnd: piece.start + piece.text.length,
    });
  }
  const measured = await measureRanges(reader, drawn.frames, requests);
  return found.findings.map((finding, i) => ({
    kind: finding.kind,
    rects: findingRects(parts[i]!, pieces, (part) => {
      const at = asked.get(part);
      const rects = at === undefined ? null : measured[at];
      return rects ? placePart(pieces[part.piece]!.box, rects) : undefined;
    }),
  }));
}

const overlaps = (a: Rect, b: Rect) => {
  const shared = intersect(a, b);
  return shared.width > 0 && shared.height > 0;
};

/** Reads the page once: its drawn text searched (or the search reused for the same text), broken images' alt texts, media in the picture. */
async function plan(reader: PageReader, kinds: readonly RedactKind[], area: Rect, known?: Searched & { alts?: Searched }): Promise<Plan> {
  const drawn = readSnapshots(await reader.snapshot());
  const found = await searched(joinPieces(drawn.pieces).text, drawn.lang, kinds, known);
  const media = drawn.media.filter((item) => overlaps(item.box, area));
  const images = media.filter((item) => item.kind === 'img');
  const states = await imagesDrawn(reader, drawn.frames, images);
  const unread: UnreadMedia = { images: 0, canvases: 0, videos: 0, svgImages: 0 };
  for (const item of media) {
    if (item.kind === 'canvas') unread.canvases += 1;
    else if (item.kind === 'video') unread.videos += 1;
    else if (item.kind === 'svgImage') unread.svgImages += 1;
    else if (states[images.indexOf(item)] === 'drawn') unread.images += 1;
  }
  // A broken image draws its alt text in its box: each is a line of its own, covered whole.
  const alts: Piece[] = images.flatMap((image, i) =>
    states[i] === 'broken' && image.alt?.trim()
      ? [
          {
            text: image.alt,
            reversed: false,
            box: image.box,
            clip: image.box,
            ink: NO_INK,
            whole: true,
            field: true,
            hardBreak: false,
            document: image.document,
            node: -1,
            block: -1,
            start: 0,
          },
        ]
      : [],
  );
  const altFound = await searched(joinPieces(alts).text, drawn.lang, kinds, known?.alts);
  const covered = [...(await rectsOf(reader, drawn, drawn.pieces, found)), ...(await rectsOf(reader, drawn, alts, altFound))];
  return { ...found, alts: altFound, covered, unread };
}

export interface RedactInput {
  page: Page;
  kinds: readonly RedactKind[];
  /** What the picture shows, in document CSS px; null for the viewport. */
  area: Rect | null;
  deadline: Deadline;
  /** The text read and searched while the capture waited for the page; its search is reused if the text is still the same. */
  ahead?: Promise<ReadAhead | undefined>;
  /** Takes the picture, painting the cover's boxes into it before it is encoded. */
  take: (cover: Cover) => Promise<Uint8Array>;
}

export interface Redacted {
  png: Uint8Array;
  /** Every box painted, in image px. */
  redactions: Redaction[];
  /** Images, canvases, videos and SVG images drawn in the picture, whose pixels were not searched. */
  unread: UnreadMedia;
}

/**
 * Holds the page still, reads and searches what it draws, and takes the picture with the findings
 * painted over. The page is read once more after the picture, before it is painted: had anything
 * moved meanwhile (an image or a font arriving), the boxes of both reads are painted.
 */
export async function redactPage(input: RedactInput): Promise<Redacted> {
  const { page, kinds, deadline } = input;
  const early = await deadline.race(input.ahead ?? Promise.resolve(undefined));
  const reader = early?.reader ?? (await deadline.race(PageReader.open(page)));
  try {
    await deadline.race(reader.holdStill());
    const area = input.area ?? (await deadline.race(reader.viewportArea()));
    const before = await deadline.race(plan(reader, kinds, area, early));
    let painted: Redaction[] = [];
    const png = await input.take({
      expected: imageBoxes(before.covered, area, area).length > 0,
      boxes: async (size) => {
        const after = await deadline.race(plan(reader, kinds, area, before));
        painted = unionOf(imageBoxes(before.covered, area, size), imageBoxes(after.covered, area, size));
        return painted;
      },
    });
    return { png, redactions: painted, unread: before.unread };
  } finally {
    void reader.close().catch(ignore);
  }
}
