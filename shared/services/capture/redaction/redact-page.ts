/** Redaction's one entry: read what the page draws, find what is sensitive, paint solid boxes over it in the picture. */
import type { Page } from 'puppeteer-core';
import type { Redaction, RedactKind } from '#shared/schemas/redaction.ts';
import type { UnreadMedia } from '#shared/schemas/screenshot.ts';
import { ignore } from '#shared/services/capture/deadline.ts';
import type { Deadline } from '#shared/services/capture/deadline.ts';
import { imageBoxes, unionOf } from '#shared/services/capture/redaction/cover.ts';
import type { Cover } from '#shared/services/capture/redaction/paint.ts';
import { PageReader } from '#shared/services/capture/redaction/page-reads.ts';
import { mediaIn, readPage } from '#shared/services/capture/redaction/reading.ts';
import type { Read } from '#shared/services/capture/redaction/reading.ts';
import type { Rect } from '#shared/services/capture/redaction/snapshot-tree.ts';

/** The page as it was read ahead; the reader is the one the redaction goes on with. */
export interface ReadAhead {
  reader: PageReader;
  read: Read;
}

/** Reads the page without changing it while the capture waits for it to settle; undefined on failure (it is read again later). */
export async function readAhead(page: Page, kinds: readonly RedactKind[]): Promise<ReadAhead | undefined> {
  let reader: PageReader | undefined;
  try {
    reader = await PageReader.open(page);
    return { reader, read: await readPage(reader, kinds) };
  } catch {
    void reader?.close().catch(ignore);
    return undefined;
  }
}

export interface RedactInput {
  page: Page;
  kinds: readonly RedactKind[];
  /** What the picture shows, in document CSS px; null for the viewport. */
  area: Rect | null;
  deadline: Deadline;
  /** The page read ahead while the capture waited for it; reused where the page is still the same. */
  ahead?: Promise<ReadAhead | undefined>;
  /** Takes the picture, painting the cover's boxes into it before it is encoded. */
  take: (cover: Cover) => Promise<Uint8Array>;
}

export interface Redacted {
  png: Uint8Array;
  redactions: Redaction[];
  /** Images, canvases, videos and SVG images drawn in the picture, whose pixels were not searched. */
  unread: UnreadMedia;
}

/** Holds the page still, reads it and takes the picture; read again after, both reads' boxes are painted (an image or font may have arrived). */
export async function redactPage(input: RedactInput): Promise<Redacted> {
  const { page, kinds, deadline } = input;
  const early = await deadline.race(input.ahead ?? Promise.resolve(undefined));
  const reader = early?.reader ?? (await deadline.race(PageReader.open(page)));
  try {
    await deadline.race(reader.holdStill());
    const area = input.area ?? (await deadline.race(reader.viewportArea()));
    const before = await deadline.race(readPage(reader, kinds, early?.read));
    const media = await deadline.race(mediaIn(reader, before, area, kinds));
    const first = [...before.covered, ...media.covered];
    let painted: Redaction[] = [];
    const png = await input.take({
      expected: imageBoxes(first, area, area).length > 0,
      boxes: async (size) => {
        const after = await deadline.race(readPage(reader, kinds, before));
        const shown = await deadline.race(mediaIn(reader, after, area, kinds, media));
        painted = unionOf(imageBoxes(first, area, size), imageBoxes([...after.covered, ...shown.covered], area, size));
        return painted;
      },
    });
    return { png, redactions: painted, unread: media.unread };
  } finally {
    void reader.close().catch(ignore);
  }
}
