/**
 * The "Redact sensitive data" action's plain logic: which sources it runs on, the capture's boxes
 * as redaction annotations, which picture becomes the source, and the line that sums it up.
 */
import type { Annotation, Edits, ShapeAnnotation } from './edits.ts';

/** The kinds of POST /api/screenshot's `redact` (shared/schemas/redaction.ts; a unit test holds them equal). */
export const REDACT_KINDS = ['email', 'phone', 'card', 'secret', 'ip'] as const;
export type RedactKind = (typeof REDACT_KINDS)[number];

/** The answer's `redactions`: one box per line fragment of a finding, in image pixels of the PNG. */
export interface RedactionBox {
  kind: RedactKind;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What a redaction annotation covers with: the review switches between them. */
export type RedactionStyle = 'solid' | 'pixelate' | 'blur';
export const REDACTION_STYLES: readonly RedactionStyle[] = ['solid', 'pixelate', 'blur'];

export const KIND_LABELS: Readonly<Record<RedactKind, { one: string; many: string; control: string }>> = {
  email: { one: 'e-mail address', many: 'e-mail addresses', control: 'E-mail addresses' },
  phone: { one: 'phone number', many: 'phone numbers', control: 'Phone numbers' },
  card: { one: 'card number', many: 'card numbers', control: 'Card numbers' },
  secret: { one: 'API key', many: 'API keys', control: 'API keys, tokens and private keys' },
  ip: { one: 'IP address', many: 'IP addresses', control: 'IP addresses' },
};

export const NEEDS_CAPTURE = "Finding sensitive text needs a captured page: the editor reads the page's text, not the picture's pixels.";
/** A shot is taken by its run, behind a login and with options the editor does not have, so the editor cannot take it again. */
export const SHOT_REDACTED_BY_RUN = 'A release shot is redacted by its run: add redact to the shot’s options there. Blur and Pixelate work here.';

/** Enabled for a captured page with its address; otherwise why not, in words for people. */
export function redactAvailability(source: { kind: string; address?: string } | undefined): { enabled: boolean; reason: string } {
  if (!source) return { enabled: false, reason: 'Capture a web page first.' };
  if (source.kind === 'shot') return { enabled: false, reason: SHOT_REDACTED_BY_RUN };
  if (source.kind !== 'capture' || !source.address) return { enabled: false, reason: NEEDS_CAPTURE };
  return { enabled: true, reason: '' };
}

/** The kinds kept in local storage, in the API's order; unknown or missing ones fall back to all. */
export function kindsFrom(stored: string | null): RedactKind[] {
  if (stored === null) return [...REDACT_KINDS];
  const wanted = new Set(stored.split(',').map((kind) => kind.trim()));
  return REDACT_KINDS.filter((kind) => wanted.has(kind));
}

/**
 * One solid redaction per box, in the source's layout pixels (image pixels over the density:
 * a phone capture is drawn at 2). A box of no area is left out.
 */
export function redactionAnnotations(boxes: readonly RedactionBox[], density: number, newId: () => string): ShapeAnnotation[] {
  return boxes
    .filter((box) => box.width > 0 && box.height > 0)
    .map((box) => ({
      id: newId(),
      kind: 'solid' as const,
      x1: box.x / density,
      y1: box.y / density,
      x2: (box.x + box.width) / density,
      y2: (box.y + box.height) / density,
      color: '#000000',
      // Unused by a redaction, but selecting one shows it in the stroke list: the toolbar's default.
      width: 4,
    }));
}

/**
 * The redacted capture's picture replaces the source only when it is laid out otherwise (another
 * size): the boxes then belong to it, and its text is covered already. The same size means the
 * same layout, so the boxes go over the picture the user has been editing.
 */
export function keepsSource(current: { width: number; height: number }, redacted: { width: number; height: number }): boolean {
  return current.width === redacted.width && current.height === redacted.height;
}

/** The edits with the boxes added after the rest, as one change (so one undo step). */
export function withRedactions(edits: Edits, added: readonly Annotation[]): Edits {
  return { ...edits, annotations: [...edits.annotations, ...added] };
}

/** Every redaction among `ids` (or all of them) switched to `style`; the same edits when nothing changes. */
export function restyleRedactions(edits: Edits, style: RedactionStyle, ids?: ReadonlySet<string>): Edits {
  let changed = false;
  const annotations = edits.annotations.map((annotation) => {
    if (!isRedactionKind(annotation.kind) || annotation.kind === style || (ids && !ids.has(annotation.id))) return annotation;
    changed = true;
    return { ...annotation, kind: style } as ShapeAnnotation;
  });
  return changed ? { ...edits, annotations } : edits;
}

export function isRedactionKind(kind: string): kind is RedactionStyle {
  return (REDACTION_STYLES as readonly string[]).includes(kind);
}

/** "3 e-mail addresses, 1 API key": counted in boxes, in the API's order of kinds. */
export function findingsPhrase(boxes: readonly Pick<RedactionBox, 'kind'>[]): string {
  const counts = REDACT_KINDS.map((kind) => [kind, boxes.filter((box) => box.kind === kind).length] as const).filter(([, n]) => n > 0);
  return counts.map(([kind, n]) => `${n} ${n === 1 ? KIND_LABELS[kind].one : KIND_LABELS[kind].many}`).join(', ');
}

/** "Found 3 e-mail addresses, 1 API key — review the boxes", or that there was nothing. */
export function redactionSummary(boxes: readonly Pick<RedactionBox, 'kind'>[]): string {
  return boxes.length === 0 ? 'Found nothing to redact.' : `Found ${findingsPhrase(boxes)} — review the boxes.`;
}

/**
 * The findings a file of these edits would show: on the picture (the source after its crop) and
 * not wholly under a redaction already there. Boxes in image pixels, edits in layout pixels.
 */
export function exposedFindings(boxes: readonly RedactionBox[], density: number, edits: Edits, source: { width: number; height: number }): RedactionBox[] {
  const picture = edits.crop ?? { x: 0, y: 0, ...source };
  const covers = edits.annotations.filter((annotation): annotation is ShapeAnnotation => isRedactionKind(annotation.kind));
  // A redaction drawn by hand a fraction of a pixel short still counts.
  const slack = 1;
  return boxes.filter((box) => {
    const x1 = box.x / density;
    const y1 = box.y / density;
    const x2 = (box.x + box.width) / density;
    const y2 = (box.y + box.height) / density;
    const shown = x2 > picture.x && x1 < picture.x + picture.width && y2 > picture.y && y1 < picture.y + picture.height;
    const covered = covers.some(
      (cover) =>
        Math.min(cover.x1, cover.x2) - slack <= x1 &&
        Math.max(cover.x1, cover.x2) + slack >= x2 &&
        Math.min(cover.y1, cover.y2) - slack <= y1 &&
        Math.max(cover.y1, cover.y2) + slack >= y2,
    );
    return box.width > 0 && box.height > 0 && shown && !covered;
  });
}
