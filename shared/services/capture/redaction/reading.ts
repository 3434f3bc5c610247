/** One read of a page: what it draws, what is found and where; an unchanged snapshot reuses the last read, unchanged text its search. */
import { isSupportedCountry } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';
import type { RedactKind } from '#shared/schemas/redaction.ts';
import type { UnreadMedia } from '#shared/schemas/screenshot.ts';
import { findingRects, needsMeasure, placePart } from '#shared/services/capture/redaction/cover.ts';
import type { CoveredFinding } from '#shared/services/capture/redaction/cover.ts';
import { findSensitive } from '#shared/services/capture/redaction/detect.ts';
import type { Finding } from '#shared/services/capture/redaction/detect.ts';
import { boxedText, readSnapshots } from '#shared/services/capture/redaction/drawn-text.ts';
import type { Drawn, Piece } from '#shared/services/capture/redaction/drawn-text.ts';
import { joinPieces, partsOf } from '#shared/services/capture/redaction/lines.ts';
import type { Joined, PiecePart } from '#shared/services/capture/redaction/lines.ts';
import { imagesDrawn, measureRanges } from '#shared/services/capture/redaction/page-reads.ts';
import type { PageReader, RangeRequest } from '#shared/services/capture/redaction/page-reads.ts';
import { intersect } from '#shared/services/capture/redaction/snapshot-tree.ts';
import type { Rect } from '#shared/services/capture/redaction/snapshot-tree.ts';

/** The region of a language tag (en-GB → GB) when it names a country libphonenumber knows. */
export function countryOfLanguage(lang: string): CountryCode | undefined {
  const region = /^[a-z]{2,3}[-_](?:[a-z]{4}[-_])?([a-z]{2})\b/i.exec(lang.trim())?.[1]?.toUpperCase();
  return region && isSupportedCountry(region) ? region : undefined;
}

export interface Searched {
  text: string;
  findings: Finding[];
}

/** `text` searched, unless it is the text `known` searched. */
async function searched(text: string, lang: string, kinds: readonly RedactKind[], known?: Searched): Promise<Searched> {
  if (known?.text === text) return known;
  const country = countryOfLanguage(lang);
  return { text, findings: text ? await findSensitive(text, kinds, country ? { defaultCountry: country } : {}) : [] };
}

/** Each finding's rects: the parts of a line it covers measured in the page where a piece is not covered whole (none asked in vain). */
async function rectsOf(reader: PageReader, drawn: Drawn, pieces: readonly Piece[], joined: Joined, found: Searched): Promise<CoveredFinding[]> {
  const parts = found.findings.map((finding) => partsOf(joined, pieces, finding.start, finding.end));
  const requests: RangeRequest[] = [];
  const asked = new Map<PiecePart, number>();
  for (const part of parts.flat()) {
    const piece = pieces[part.piece]!;
    if (piece.backendNodeId === undefined || !needsMeasure(part, piece)) continue;
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

/** One read of what the page draws: the snapshot it came from, the text searched, and each finding's rects in document CSS px. */
export interface Read {
  key: string;
  drawn: Drawn;
  found: Searched;
  covered: CoveredFinding[];
}

/** Reads the page: `known` whole if the page's snapshot is the same, its search if the text is. */
export async function readPage(reader: PageReader, kinds: readonly RedactKind[], known?: Read): Promise<Read> {
  const parts = await reader.snapshot();
  const key = JSON.stringify(parts);
  if (known?.key === key) return known;
  const drawn = readSnapshots(parts);
  const joined = joinPieces(drawn.pieces);
  const found = await searched(joined.text, drawn.lang, kinds, known?.found);
  return { key, drawn, found, covered: await rectsOf(reader, drawn, drawn.pieces, joined, found) };
}

/** What the picture shows of media: what cannot be read, and the alt texts broken images show, searched. */
export interface Pictured {
  unread: UnreadMedia;
  alts: Searched;
  covered: CoveredFinding[];
}

const overlaps = (a: Rect, b: Rect) => {
  const shared = intersect(a, b);
  return shared.width > 0 && shared.height > 0;
};

/** The media the picture (`area`) shows, counted; a broken image's alt text, drawn in its box, searched as a line and covered whole. */
export async function mediaIn(reader: PageReader, read: Read, area: Rect, kinds: readonly RedactKind[], known?: Pictured): Promise<Pictured> {
  const media = read.drawn.media.filter((item) => overlaps(item.box, area));
  const images = media.filter((item) => item.kind === 'img');
  const states = await imagesDrawn(reader, read.drawn.frames, images);
  const unread: UnreadMedia = { images: 0, canvases: 0, videos: 0, svgImages: 0 };
  for (const item of media) {
    if (item.kind === 'canvas') unread.canvases += 1;
    else if (item.kind === 'video') unread.videos += 1;
    else if (item.kind === 'svgImage') unread.svgImages += 1;
    else if (states[images.indexOf(item)] === 'drawn') unread.images += 1;
  }
  const alts = images.flatMap((image, i) => (states[i] === 'broken' && image.alt?.trim() ? [boxedText(image.document, image.alt, image.box, image.box)] : []));
  const joined = joinPieces(alts);
  const found = await searched(joined.text, read.drawn.lang, kinds, known?.alts);
  return { unread, alts: found, covered: await rectsOf(reader, read.drawn, alts, joined, found) };
}
