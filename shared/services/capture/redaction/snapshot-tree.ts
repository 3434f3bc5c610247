/** One DOMSnapshot document as a tree to ask (styles, see-through, clips, frame places); answers are remembered per node. */
import type { Protocol } from 'puppeteer-core';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The computed styles the snapshot is asked for, and the only ones read from it. */
export const SNAPSHOT_STYLES = [
  'display',
  'position',
  'visibility',
  'opacity',
  'overflow-x',
  'overflow-y',
  'padding-left',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'border-left-width',
  'border-top-width',
  'border-right-width',
  'border-bottom-width',
  '-webkit-text-fill-color',
  '-webkit-text-stroke-width',
  '-webkit-text-stroke-color',
  'text-shadow',
  'font-size',
  'font-style',
  'unicode-bidi',
  'direction',
  'text-emphasis-style',
  'text-emphasis-position',
  'text-decoration-line',
  'text-underline-offset',
  'text-decoration-thickness',
] as const;
export type SnapshotStyle = (typeof SNAPSHOT_STYLES)[number];
const STYLE_AT = new Map<SnapshotStyle, number>(SNAPSHOT_STYLES.map((name, i) => [name, i]));

/** A layout node's computed styles, read by name. */
export type Style = (name: SnapshotStyle) => string;

export const EVERYWHERE: Rect = { x: -1e9, y: -1e9, width: 2e9, height: 2e9 };

export function intersect(a: Rect, b: Rect): Rect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  return { x, y, width: Math.min(a.x + a.width, b.x + b.width) - x, height: Math.min(a.y + a.height, b.y + b.height) - y };
}

export interface Tree {
  doc: Protocol.DOMSnapshot.DocumentSnapshot;
  strings: string[];
  /** The document's place among every document read (of the page's snapshot and its other processes'). */
  index: number;
  /** The place of the first document of its snapshot. */
  first: number;
  /** Node index → layout index, for nodes that are laid out. */
  layoutOf: Map<number, number>;
  clips: Map<number, Rect>;
  seeThrough: Map<number, boolean>;
}

export function treeOf(doc: Protocol.DOMSnapshot.DocumentSnapshot, strings: string[], at: { index: number; first: number }): Tree {
  const layoutOf = new Map<number, number>();
  doc.layout.nodeIndex.forEach((node, layoutIndex) => {
    layoutOf.set(node, layoutIndex);
  });
  return { doc, strings, ...at, layoutOf, clips: new Map(), seeThrough: new Map() };
}

export function styleAt(tree: Tree, layoutIndex: number): Style {
  const values = tree.doc.layout.styles[layoutIndex] ?? [];
  return (name) => tree.strings[values[STYLE_AT.get(name)!] ?? -1] ?? '';
}

const parentOf = (tree: Tree, node: number): number => tree.doc.nodes.parentIndex?.[node] ?? -1;

function positionOf(tree: Tree, node: number): string {
  const layoutIndex = tree.layoutOf.get(node);
  return layoutIndex === undefined || tree.doc.nodes.nodeType?.[node] !== 1 ? 'static' : styleAt(tree, layoutIndex)('position');
}

/** A computed length in px; 0 for none. */
export const px = (value: string): number => {
  const n = Number.parseFloat(value);
  return Number.isFinite(n) ? n : 0;
};

/** A laid-out element's padding box (its border box less its borders), in its document's px. */
export function paddingBoxOf(tree: Tree, layoutIndex: number): Rect {
  const style = styleAt(tree, layoutIndex);
  const [x = 0, y = 0, width = 0, height = 0] = tree.doc.layout.bounds[layoutIndex] ?? [];
  const [left, top] = [px(style('border-left-width')), px(style('border-top-width'))];
  return { x: x + left, y: y + top, width: width - left - px(style('border-right-width')), height: height - top - px(style('border-bottom-width')) };
}

/** Whether the node or an ancestor has opacity 0, so nothing of it is drawn. */
export function isSeeThrough(tree: Tree, node: number): boolean {
  if (node < 0) return false;
  let known = tree.seeThrough.get(node);
  if (known === undefined) {
    const layoutIndex = tree.layoutOf.get(node);
    known = (layoutIndex !== undefined && styleAt(tree, layoutIndex)('opacity') === '0') || isSeeThrough(tree, parentOf(tree, node));
    tree.seeThrough.set(node, known);
  }
  return known;
}

/** The border box an element clips its content to, on the axes it clips; the root and body clip the viewport, not the page: nothing here. */
function ownClip(tree: Tree, node: number): Rect {
  const layoutIndex = tree.layoutOf.get(node);
  const name = tree.strings[tree.doc.nodes.nodeName?.[node] ?? -1];
  if (layoutIndex === undefined || tree.doc.nodes.nodeType?.[node] !== 1 || name === 'HTML' || name === 'BODY') return EVERYWHERE;
  const style = styleAt(tree, layoutIndex);
  const [x, y, width, height] = tree.doc.layout.bounds[layoutIndex]!;
  const clipsX = style('overflow-x') !== 'visible';
  const clipsY = style('overflow-y') !== 'visible';
  return {
    x: clipsX ? x! : EVERYWHERE.x,
    y: clipsY ? y! : EVERYWHERE.y,
    width: clipsX ? width! : EVERYWHERE.width,
    height: clipsY ? height! : EVERYWHERE.height,
  };
}

/**
 * What clips a node's content, in its document's px. An absolute box escapes the clips below its containing block, a fixed one
 * all; containing blocks made by transforms are not followed (they would only add clips: leaving them out paints more, never less).
 */
export function contentClip(tree: Tree, node: number): Rect {
  if (node < 0) return EVERYWHERE;
  const known = tree.clips.get(node);
  if (known) return known;
  let outer: Rect;
  const position = positionOf(tree, node);
  if (position === 'fixed') outer = EVERYWHERE;
  else if (position === 'absolute') {
    let block = parentOf(tree, node);
    while (block >= 0 && positionOf(tree, block) === 'static') block = parentOf(tree, block);
    outer = contentClip(tree, block);
  } else outer = contentClip(tree, parentOf(tree, node));
  const clip = intersect(ownClip(tree, node), outer);
  tree.clips.set(node, clip);
  return clip;
}

export interface FramePlace {
  /** Added to the document's px to get the top page's. */
  dx: number;
  dy: number;
  /** Its frame's viewport and what clips the frame, in top-page px. */
  clip: Rect;
  /** The frame is not drawn (no box, hidden, see-through). */
  hidden: boolean;
}

export interface FrameOwner {
  tree: Tree;
  node: number;
}

/** Each in-process frame's document, by its index, and the element it is drawn in. */
export function inProcessOwners(trees: readonly Tree[]): Map<number, FrameOwner> {
  const owners = new Map<number, FrameOwner>();
  for (const tree of trees) {
    const frames = tree.doc.nodes.contentDocumentIndex;
    // The snapshot numbers the documents from its own first.
    frames?.index.forEach((node, i) => {
      owners.set(tree.first + frames.value[i]!, { tree, node });
    });
  }
  return owners;
}

/** Where each document sits in the top page (its frame's content box less its scroll); an `unplaced` one is not drawn (its frame is gone). */
export function framePlaces(trees: readonly Tree[], owners: ReadonlyMap<number, FrameOwner>, unplaced: ReadonlySet<number> = new Set()): FramePlace[] {
  const places: FramePlace[] = [];
  const placeOf = (index: number): FramePlace => {
    const known = places[index];
    if (known) return known;
    const owner = owners.get(index);
    const doc = trees[index]!.doc;
    let place: FramePlace = { dx: 0, dy: 0, clip: EVERYWHERE, hidden: unplaced.has(index) };
    if (owner) {
      const parent = placeOf(owner.tree.index);
      const layoutIndex = owner.tree.layoutOf.get(owner.node);
      if (layoutIndex === undefined) place = { ...parent, hidden: true };
      else {
        const style = styleAt(owner.tree, layoutIndex);
        const padding = paddingBoxOf(owner.tree, layoutIndex);
        const [left, top] = [px(style('padding-left')), px(style('padding-top'))];
        const content = {
          x: padding.x + left + parent.dx,
          y: padding.y + top + parent.dy,
          width: padding.width - left - px(style('padding-right')),
          height: padding.height - top - px(style('padding-bottom')),
        };
        const clip = contentClip(owner.tree, owner.node);
        place = {
          dx: content.x - (doc.scrollOffsetX ?? 0),
          dy: content.y - (doc.scrollOffsetY ?? 0),
          clip: intersect(intersect(parent.clip, { ...clip, x: clip.x + parent.dx, y: clip.y + parent.dy }), content),
          hidden: parent.hidden || style('visibility') !== 'visible' || isSeeThrough(owner.tree, owner.node),
        };
      }
    }
    places[index] = place;
    return place;
  };
  for (let index = 0; index < trees.length; index += 1) placeOf(index);
  return places;
}
