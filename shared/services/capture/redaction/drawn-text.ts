/** What a page draws, from a DOMSnapshot (shadow roots and frames too): text as laid out, form fields, media, and where each shows. */
import type { Protocol } from 'puppeteer-core';
import {
  contentClip,
  framePlaces,
  inProcessOwners,
  intersect,
  isSeeThrough,
  paddingBoxOf,
  styleAt,
  treeOf,
} from '#shared/services/capture/redaction/snapshot-tree.ts';
import type { FrameOwner, FramePlace, Rect, Tree } from '#shared/services/capture/redaction/snapshot-tree.ts';
import { inkOf, invisibleText, NO_INK } from '#shared/services/capture/redaction/ink.ts';
import type { Ink } from '#shared/services/capture/redaction/ink.ts';

/** One run of text as drawn: a line fragment of a text node or generated content, or a form field's text. */
export interface Piece {
  /** The characters, in the order of the document (a right-to-left override draws them reversed). */
  text: string;
  reversed: boolean;
  /** Where it is laid out, in document CSS px of the top page. */
  box: Rect;
  /** What of the page it can show in: its clipping ancestors and frames, intersected. */
  clip: Rect;
  ink: Ink;
  /** Covered whole when any of it is found: a form field, generated content. */
  whole: boolean;
  /** A form field's text: read as a line of its own. */
  field: boolean;
  /** A line break (<br>): nothing drawn, but the line ends. */
  hardBreak: boolean;
  document: number;
  /** Its node, its nearest block container and its table cell (-1: none), within its document. */
  node: number;
  block: number;
  cell: number;
  /** For a text node: its id for the DevTools protocol and the DOM offset of `text`'s start, so part of it can be measured. */
  backendNodeId?: number;
  start: number;
}

/** Text drawn inside an element's box (a form field's, a broken image's alt): read as a line of its own and covered whole. */
export function boxedText(document: number, text: string, box: Rect, clip: Rect, element = { node: -1, block: -1, cell: -1 }): Piece {
  return { text, reversed: false, box, clip, ink: NO_INK, whole: true, field: true, hardBreak: false, document, start: 0, ...element };
}

export type MediaKind = 'img' | 'canvas' | 'video' | 'svgImage';

/** An image, canvas, video or SVG image element drawn somewhere: its pixels are not read. */
export interface Media {
  kind: MediaKind;
  /** The part of its box that can show, top-page document CSS px. */
  box: Rect;
  document: number;
  backendNodeId: number;
  /** An img's alt text, drawn in its place when it fails to load. */
  alt?: string;
}

export interface Drawn {
  pieces: Piece[];
  media: Media[];
  /** Each document's frame id (in the order read), for running code in it. */
  frames: string[];
  /** The top document's `lang`, for reading national phone numbers. */
  lang: string;
}

const MEDIA: Record<string, MediaKind> = { IMG: 'img', CANVAS: 'canvas', VIDEO: 'video', image: 'svgImage' };
// Inputs whose value is drawn as text; password fields draw dots, date and time fields a formatted date.
const TEXT_INPUTS = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'number', 'button', 'submit', 'reset']);

/** A part narrower or shorter than this shows nothing readable (the 1×1 px of a screen-reader-only label). */
const UNREADABLE_PX = 2;
const shows = (box: Rect, clip: Rect): boolean => {
  const part = intersect(box, clip);
  return part.width >= UNREADABLE_PX && part.height >= UNREADABLE_PX;
};

/** A snapshot of one renderer process's documents; for a frame of another process, the element its first document is drawn in. */
export interface SnapshotPart {
  snapshot: Protocol.DOMSnapshot.CaptureSnapshotResponse;
  /** The owner element in an earlier part, by its id for the DevTools protocol. */
  owner?: { part: number; backendNodeId: number };
  /** A frame of another process whose owner element is gone: not drawn. */
  orphan?: boolean;
}

export function readSnapshot(snapshot: Protocol.DOMSnapshot.CaptureSnapshotResponse): Drawn {
  return readSnapshots([{ snapshot }]);
}

/** Reads a page's snapshots: the first is the page's, each other a frame of another process (site isolation), placed in its owner. */
export function readSnapshots(parts: readonly SnapshotPart[]): Drawn {
  const trees: Tree[] = [];
  const firsts: number[] = [];
  for (const { snapshot } of parts) {
    const first = trees.length;
    firsts.push(first);
    snapshot.documents.forEach((doc, i) => {
      trees.push(treeOf(doc, snapshot.strings, { index: first + i, first }));
    });
  }
  const owners = inProcessOwners(trees);
  const unplaced = new Set<number>();
  parts.forEach(({ owner, orphan }, part) => {
    const found = owner && ownerOf(trees, firsts, parts, owner);
    if (found) owners.set(firsts[part]!, found);
    else if (owner || orphan) unplaced.add(firsts[part]!);
  });
  const places = framePlaces(trees, owners, unplaced);
  const drawn: Drawn = {
    pieces: [],
    media: [],
    frames: trees.map((tree) => tree.strings[tree.doc.frameId] ?? ''),
    lang: (trees[0] && attribute(trees[0], htmlOf(trees[0]), 'lang')) ?? '',
  };
  trees.forEach((tree, index) => {
    if (!places[index]!.hidden) readDocument(tree, places[index]!, drawn);
  });
  return drawn;
}

/** The element, in the documents of an earlier part, that has the protocol id given. */
function ownerOf(
  trees: readonly Tree[],
  firsts: readonly number[],
  parts: readonly SnapshotPart[],
  owner: { part: number; backendNodeId: number },
): FrameOwner | undefined {
  const count = parts[owner.part]?.snapshot.documents.length ?? 0;
  for (const tree of trees.slice(firsts[owner.part], (firsts[owner.part] ?? 0) + count)) {
    const node = tree.doc.nodes.backendNodeId?.indexOf(owner.backendNodeId) ?? -1;
    if (node >= 0) return { tree, node };
  }
  return undefined;
}

const htmlOf = (tree: Tree): number => tree.doc.nodes.nodeName?.findIndex((name) => tree.strings[name] === 'HTML') ?? -1;

function attribute(tree: Tree, node: number, name: string): string | undefined {
  const attributes = tree.doc.nodes.attributes?.[node] ?? [];
  for (let i = 0; i < attributes.length; i += 2) if (tree.strings[attributes[i]!] === name) return tree.strings[attributes[i + 1]!];
  return undefined;
}

function readDocument(tree: Tree, place: FramePlace, drawn: Drawn): void {
  const { layout, nodes, textBoxes } = tree.doc;
  const move = (box: readonly number[]): Rect => ({ x: box[0]! + place.dx, y: box[1]! + place.dy, width: box[2]!, height: box[3]! });
  const clipOf = (node: number) => {
    const clip = contentClip(tree, node);
    return intersect(place.clip, { ...clip, x: clip.x + place.dx, y: clip.y + place.dy });
  };
  const boxesOf = new Map<number, number[]>();
  textBoxes.layoutIndex.forEach((layoutIndex, box) => {
    const list = boxesOf.get(layoutIndex);
    if (list) list.push(box);
    else boxesOf.set(layoutIndex, [box]);
  });
  const fields = formFields(tree);
  const base = { document: tree.index, reversed: false, hardBreak: false, field: false, start: 0 };
  for (let layoutIndex = 0; layoutIndex < layout.nodeIndex.length; layoutIndex += 1) {
    const node = layout.nodeIndex[layoutIndex]!;
    const style = styleAt(tree, layoutIndex);
    const name = tree.strings[nodes.nodeName?.[node] ?? -1] ?? '';
    const kind = MEDIA[name];
    const field = fields.get(node);
    const boxes = boxesOf.get(layoutIndex);
    if ((!kind && !field && !boxes) || style('visibility') !== 'visible' || isSeeThrough(tree, node)) continue;
    if (kind) {
      const box = move(layout.bounds[layoutIndex]!);
      const clip = clipOf(nodes.parentIndex?.[node] ?? -1);
      const alt = kind === 'img' ? attribute(tree, node, 'alt') : undefined;
      if (shows(box, clip))
        drawn.media.push({ kind, box: intersect(box, clip), document: tree.index, backendNodeId: nodes.backendNodeId?.[node] ?? 0, ...(alt ? { alt } : {}) });
    }
    if (field) {
      const clip = clipOf(node);
      for (const row of field) {
        const box = move(row.box);
        if (row.text.trim() && shows(box, clip)) drawn.pieces.push(boxedText(tree.index, row.text, box, clip, { node, block: node, cell: cellOf(tree, node) }));
      }
    }
    if (!boxes || invisibleText(style)) continue;
    const text = tree.strings[layout.text[layoutIndex] ?? -1] ?? '';
    const isText = nodes.nodeType?.[node] === 3;
    const clip = clipOf(node);
    const shared = {
      ...base,
      reversed: style('direction') === 'rtl' && style('unicode-bidi').includes('override'),
      clip,
      ink: inkOf(style),
      // Generated content has no text node to measure a part of.
      whole: !isText,
      node,
      block: blockOf(tree, node),
      cell: cellOf(tree, node),
      ...(isText ? { backendNodeId: nodes.backendNodeId?.[node] ?? 0 } : {}),
    };
    for (const index of boxes) {
      const start = textBoxes.start[index]!;
      const box = move(textBoxes.bounds[index]!);
      if (name === 'BR') drawn.pieces.push({ ...shared, text: '\n', box, hardBreak: true, start });
      else if (shows(box, clip)) drawn.pieces.push({ ...shared, text: text.slice(start, start + textBoxes.length[index]!), box, start });
    }
  }
}

/** The nearest ancestor that lays its content out in lines of its own (not inline, not `display: contents`). */
function blockOf(tree: Tree, node: number): number {
  for (let at = tree.doc.nodes.parentIndex?.[node] ?? -1; at >= 0; at = tree.doc.nodes.parentIndex?.[at] ?? -1) {
    const layoutIndex = tree.layoutOf.get(at);
    if (layoutIndex !== undefined && !['inline', 'contents'].includes(styleAt(tree, layoutIndex)('display'))) return at;
  }
  return -1;
}

/** The nearest table cell the node is in, or -1: a cell's text is never read into the next cell's. */
function cellOf(tree: Tree, node: number): number {
  for (let at = node; at >= 0; at = tree.doc.nodes.parentIndex?.[at] ?? -1) {
    const layoutIndex = tree.layoutOf.get(at);
    if (layoutIndex !== undefined && tree.doc.nodes.nodeType?.[at] === 1 && styleAt(tree, layoutIndex)('display') === 'table-cell') return at;
  }
  return -1;
}

/** The text each form field shows, by node (value or placeholder, chosen option, a list box's rows), in padding boxes (document px). */
function formFields(tree: Tree): Map<number, { text: string; box: readonly number[] }[]> {
  const { strings } = tree;
  const { nodes, layout } = tree.doc;
  const fields = new Map<number, { text: string; box: readonly number[] }[]>();
  const rare = (data: Protocol.DOMSnapshot.RareStringData | undefined, node: number) => {
    const at = data?.index.indexOf(node) ?? -1;
    return at >= 0 ? (strings[data!.value[at]!] ?? '') : '';
  };
  const paddingBox = (layoutIndex: number): readonly number[] => {
    const box = paddingBoxOf(tree, layoutIndex);
    return [box.x, box.y, box.width, box.height];
  };
  const names = (nodes.nodeName ?? []).map((name) => strings[name] ?? '');
  const parents = nodes.parentIndex ?? [];
  const options = new Map<number, number[]>();
  const texts = new Map<number, string>();
  names.forEach((name, node) => {
    const parent = parents[node] ?? -1;
    if (name === 'OPTION') {
      const select = names[parent] === 'OPTGROUP' ? (parents[parent] ?? -1) : parent;
      options.set(select, [...(options.get(select) ?? []), node]);
    } else if (nodes.nodeType?.[node] === 3 && names[parent] === 'OPTION')
      texts.set(parent, (texts.get(parent) ?? '') + (strings[nodes.nodeValue?.[node] ?? -1] ?? ''));
  });
  const label = (option: number) => attribute(tree, option, 'label') ?? texts.get(option) ?? '';
  names.forEach((name, node) => {
    const layoutIndex = tree.layoutOf.get(node);
    if (layoutIndex === undefined) return;
    if ((name === 'INPUT' && TEXT_INPUTS.has((attribute(tree, node, 'type') ?? '').toLowerCase())) || name === 'TEXTAREA') {
      const value = name === 'INPUT' ? rare(nodes.inputValue, node) : rare(nodes.textValue, node);
      fields.set(node, [{ text: value || (attribute(tree, node, 'placeholder') ?? ''), box: paddingBox(layoutIndex) }]);
    } else if (name === 'SELECT') {
      const list = options.get(node) ?? [];
      if (Number(attribute(tree, node, 'size') ?? 0) > 1 || attribute(tree, node, 'multiple') !== undefined) {
        // A list box draws each option as a row of its own.
        const rows = list.flatMap((option) => {
          const at = tree.layoutOf.get(option);
          return at === undefined ? [] : [{ text: label(option), box: layout.bounds[at]! }];
        });
        fields.set(node, rows);
      } else {
        const chosen = list.find((option) => nodes.optionSelected?.index.includes(option)) ?? list[0];
        fields.set(node, chosen === undefined ? [] : [{ text: label(chosen), box: paddingBox(layoutIndex) }]);
      }
    }
  });
  return fields;
}
