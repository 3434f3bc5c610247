import type { Protocol } from 'puppeteer-core';
import { describe, expect, it } from 'vitest';
import { readSnapshot, readSnapshots } from '#shared/services/capture/redaction/drawn-text.ts';
import { SNAPSHOT_STYLES } from '#shared/services/capture/redaction/snapshot-tree.ts';
import type { SnapshotStyle } from '#shared/services/capture/redaction/snapshot-tree.ts';

/** A node of a hand-made snapshot document; laid out when it has bounds. */
interface Node {
  name: string;
  parent: number;
  type?: number;
  value?: string;
  attributes?: Record<string, string>;
  bounds?: number[];
  style?: Partial<Record<SnapshotStyle, string>>;
  /** A text node's runs: [x, y, width, height, start, length]. */
  runs?: number[][];
  inputValue?: string;
}

const DEFAULTS: Record<SnapshotStyle, string> = {
  display: 'block',
  position: 'static',
  visibility: 'visible',
  opacity: '1',
  'overflow-x': 'visible',
  'overflow-y': 'visible',
  'padding-left': '0px',
  'padding-top': '0px',
  'padding-right': '0px',
  'padding-bottom': '0px',
  'border-left-width': '0px',
  'border-top-width': '0px',
  'border-right-width': '0px',
  'border-bottom-width': '0px',
  '-webkit-text-fill-color': 'rgb(0, 0, 0)',
  '-webkit-text-stroke-width': '0px',
  '-webkit-text-stroke-color': 'rgb(0, 0, 0)',
  'text-shadow': 'none',
  'font-size': '16px',
  'font-style': 'normal',
  'unicode-bidi': 'normal',
  direction: 'ltr',
  'text-emphasis-style': 'none',
  'text-emphasis-position': 'over right',
  'text-decoration-line': 'none',
  'text-underline-offset': 'auto',
  'text-decoration-thickness': 'auto',
};

/** A snapshot of documents, each a list of nodes (index 0 the document); `frames` maps an iframe node to its document. */
function snapshot(documents: { nodes: Node[]; scroll?: [number, number]; frames?: [number, number][] }[]): Protocol.DOMSnapshot.CaptureSnapshotResponse {
  const strings: string[] = [];
  const s = (text: string) => {
    const at = strings.indexOf(text);
    return at >= 0 ? at : strings.push(text) - 1;
  };
  return {
    strings,
    documents: documents.map(({ nodes, scroll = [0, 0], frames = [] }, d) => {
      const doc: Protocol.DOMSnapshot.DocumentSnapshot = {
        documentURL: s(`http://page.test/${d}`),
        title: s(''),
        baseURL: s(''),
        contentLanguage: s(''),
        encodingName: s(''),
        publicId: s(''),
        systemId: s(''),
        frameId: s(`frame-${d}`),
        scrollOffsetX: scroll[0],
        scrollOffsetY: scroll[1],
        nodes: {
          parentIndex: nodes.map((node) => node.parent),
          nodeType: nodes.map((node, i) => node.type ?? (i === 0 ? 9 : node.name === '#text' ? 3 : 1)),
          nodeName: nodes.map((node) => s(node.name)),
          nodeValue: nodes.map((node) => s(node.value ?? '')),
          backendNodeId: nodes.map((_, i) => 100 * d + i + 1),
          attributes: nodes.map((node) => Object.entries(node.attributes ?? {}).flatMap(([name, value]) => [s(name), s(value)])),
          inputValue: {
            index: nodes.flatMap((node, i) => (node.inputValue === undefined ? [] : [i])),
            value: nodes.flatMap((node) => (node.inputValue === undefined ? [] : [s(node.inputValue)])),
          },
          textValue: { index: [], value: [] },
          optionSelected: { index: [] },
          contentDocumentIndex: { index: frames.map(([node]) => node), value: frames.map(([, doc]) => doc) },
        },
        layout: { nodeIndex: [], styles: [], bounds: [], text: [], stackingContexts: { index: [] } },
        textBoxes: { layoutIndex: [], bounds: [], start: [], length: [] },
      };
      nodes.forEach((node, i) => {
        if (!node.bounds) return;
        const layoutIndex = doc.layout.nodeIndex.push(i) - 1;
        doc.layout.styles.push(SNAPSHOT_STYLES.map((name) => s(node.style?.[name] ?? DEFAULTS[name])));
        doc.layout.bounds.push(node.bounds);
        doc.layout.text.push(node.name === '#text' ? s(node.value ?? '') : -1);
        for (const [x, y, width, height, start, length] of node.runs ?? []) {
          doc.textBoxes.layoutIndex.push(layoutIndex);
          doc.textBoxes.bounds.push([x!, y!, width!, height!]);
          doc.textBoxes.start.push(start!);
          doc.textBoxes.length.push(length!);
        }
      });
      return doc;
    }),
  };
}

/** Borders of `width` px on every side. */
const border = (width: number): Node['style'] => Object.fromEntries(['left', 'top', 'right', 'bottom'].map((side) => [`border-${side}-width`, `${width}px`]));

/** A text node under `parent`, one run at (x, y), 10 px a character; its style is its parent's. */
const text = (parent: number, value: string, x: number, y: number, style: Node['style'] = {}): Node => ({
  name: '#text',
  parent,
  value,
  bounds: [x, y, value.length * 10, 20],
  style,
  runs: [[x, y, value.length * 10, 20, 0, value.length]],
});

const page = (body: Node[], bodyStyle: Node['style'] = {}): Node[] => [
  { name: '#document', parent: -1, bounds: [0, 0, 1000, 1000] },
  { name: 'HTML', parent: 0, bounds: [0, 0, 1000, 1000], attributes: { lang: 'en-GB' }, style: bodyStyle },
  { name: 'BODY', parent: 1, bounds: [0, 0, 1000, 1000], style: bodyStyle },
  ...body,
];

const texts = (snap: Protocol.DOMSnapshot.CaptureSnapshotResponse) => readSnapshot(snap).pieces.map((piece) => piece.text);

describe('readSnapshot', () => {
  it('reads the runs of text as laid out, with the root language', () => {
    const drawn = readSnapshot(snapshot([{ nodes: page([{ name: 'P', parent: 2, bounds: [0, 0, 500, 20] }, text(3, 'AKIA KEY', 0, 0)]) }]));
    expect(drawn.lang).toBe('en-GB');
    expect(drawn.pieces.map((piece) => ({ text: piece.text, box: piece.box, backendNodeId: piece.backendNodeId, block: piece.block }))).toEqual([
      { text: 'AKIA KEY', box: { x: 0, y: 0, width: 80, height: 20 }, backendNodeId: 5, block: 3 },
    ]);
  });

  it('leaves out text that is hidden, under an ancestor of opacity 0, or drawn in no colour, stroke or shadow', () => {
    const nodes = page([
      { name: 'DIV', parent: 2, bounds: [0, 0, 500, 100], style: { opacity: '0' } },
      text(3, 'see-through', 0, 0),
      { name: 'P', parent: 2, bounds: [0, 100, 500, 20], style: { visibility: 'hidden' } },
      text(5, 'hidden', 0, 100, { visibility: 'hidden' }),
      { name: 'P', parent: 2, bounds: [0, 200, 500, 20] },
      text(7, 'transparent', 0, 200, { '-webkit-text-fill-color': 'rgba(0, 0, 0, 0)' }),
      text(7, 'shadowed', 200, 200, { '-webkit-text-fill-color': 'rgba(0, 0, 0, 0)', 'text-shadow': 'rgb(0, 0, 0) 0px 0px 4px' }),
      text(7, 'stroked', 400, 200, { '-webkit-text-fill-color': 'rgba(0, 0, 0, 0)', '-webkit-text-stroke-width': '1px' }),
    ]);
    expect(texts(snapshot([{ nodes }]))).toEqual(['shadowed', 'stroked']);
  });

  it('cuts text to the boxes that clip it, not to the root or body, and lets a box positioned outside a clip escape it', () => {
    const nodes = page(
      [
        { name: 'DIV', parent: 2, bounds: [0, 0, 300, 40], style: { 'overflow-x': 'hidden', 'overflow-y': 'hidden' } },
        text(3, 'inside', 0, 10),
        text(3, 'below the clip', 0, 50),
        { name: 'SPAN', parent: 3, bounds: [0, 60, 100, 20], style: { position: 'absolute' } },
        text(6, 'escapes', 0, 60, { position: 'absolute' }),
        text(2, 'far down the page', 0, 2000),
      ],
      { 'overflow-x': 'hidden', 'overflow-y': 'hidden' },
    );
    const drawn = readSnapshot(snapshot([{ nodes }]));
    expect(drawn.pieces.map((piece) => [piece.text, piece.clip.height < 1e6 ? piece.clip : 'unclipped'])).toEqual([
      ['inside', { x: 0, y: 0, width: 300, height: 40 }],
      ['escapes', 'unclipped'],
      ['far down the page', 'unclipped'],
    ]);
  });

  it("places a frame's text in the top page (the frame's content box, less its scroll) and cuts it to the frame", () => {
    const top = page([
      {
        name: 'IFRAME',
        parent: 2,
        bounds: [100, 200, 414, 164],
        style: { ...border(3), 'padding-left': '4px', 'padding-top': '4px', 'padding-right': '4px', 'padding-bottom': '4px' },
      },
    ]);
    const frame = page([{ name: 'P', parent: 2, bounds: [0, 0, 500, 400] }, text(3, 'shown', 0, 300), text(3, 'scrolled away', 0, 100)]);
    const drawn = readSnapshot(
      snapshot([
        { nodes: top, frames: [[3, 1]] },
        { nodes: frame, scroll: [0, 250] },
      ]),
    );
    expect(drawn.pieces.map((piece) => [piece.text, piece.box.x, piece.box.y, piece.document])).toEqual([['shown', 107, 257, 1]]);
    expect(drawn.frames).toEqual(['frame-0', 'frame-1']);
  });

  it('reads form fields as they show: a value, else the placeholder, never a password; covered whole in their padding box', () => {
    const nodes = page([
      { name: 'INPUT', parent: 2, bounds: [0, 0, 300, 30], style: border(2), inputValue: 'jane@example.com' },
      { name: 'INPUT', parent: 2, bounds: [0, 40, 300, 30], style: border(2), inputValue: '', attributes: { placeholder: 'hint@example.com' } },
      { name: 'INPUT', parent: 2, bounds: [0, 80, 300, 30], style: border(2), inputValue: 'hunter2', attributes: { type: 'password' } },
    ]);
    const drawn = readSnapshot(snapshot([{ nodes }]));
    expect(drawn.pieces.map((piece) => ({ text: piece.text, box: piece.box, whole: piece.whole, field: piece.field }))).toEqual([
      { text: 'jane@example.com', box: { x: 2, y: 2, width: 296, height: 26 }, whole: true, field: true },
      { text: 'hint@example.com', box: { x: 2, y: 42, width: 296, height: 26 }, whole: true, field: true },
    ]);
  });

  it('reads each option row of a list box, and marks a right-to-left override as drawn reversed', () => {
    const nodes = page([
      {
        name: 'SELECT',
        parent: 2,
        bounds: [0, 0, 200, 60],
        attributes: { size: '3' },
        style: { ...border(1), 'overflow-x': 'hidden', 'overflow-y': 'hidden' },
      },
      { name: 'OPTION', parent: 3, bounds: [1, 1, 198, 18] },
      { name: '#text', parent: 4, value: 'one@example.com' },
      { name: 'OPTION', parent: 3, bounds: [1, 19, 198, 18] },
      { name: '#text', parent: 6, value: 'two' },
      { name: 'BDO', parent: 2, bounds: [0, 100, 200, 20], style: { display: 'inline', direction: 'rtl', 'unicode-bidi': 'bidi-override' } },
      text(8, 'moc.elpmaxe@nhoj', 0, 100, { display: 'inline', direction: 'rtl', 'unicode-bidi': 'bidi-override' }),
    ]);
    const drawn = readSnapshot(snapshot([{ nodes }]));
    expect(drawn.pieces.map((piece) => [piece.text, piece.box.y, piece.reversed, piece.block])).toEqual([
      ['one@example.com', 1, false, 3],
      ['two', 19, false, 3],
      ['moc.elpmaxe@nhoj', 100, true, 2],
    ]);
  });

  it("lists the images, canvases, videos and SVG images that show, with an img's alt text", () => {
    const nodes = page([
      { name: 'IMG', parent: 2, bounds: [0, 0, 100, 100], attributes: { alt: 'logo' } },
      { name: 'CANVAS', parent: 2, bounds: [0, 100, 100, 100] },
      { name: 'VIDEO', parent: 2, bounds: [0, 200, 100, 100], style: { visibility: 'hidden' } },
      { name: 'image', parent: 2, bounds: [0, 300, 1, 1] },
    ]);
    expect(readSnapshot(snapshot([{ nodes }])).media.map((item) => [item.kind, item.alt, item.backendNodeId])).toEqual([
      ['img', 'logo', 4],
      ['canvas', undefined, 5],
    ]);
  });

  it('places a frame of another process in the element it is drawn in, and leaves one whose element is gone undrawn', () => {
    // Prepare: the page's snapshot, and two frames' of other processes: one owned by the page's IFRAME (protocol id 4), one by nothing.
    const top = page([{ name: 'IFRAME', parent: 2, bounds: [100, 200, 400, 100], style: border(2) }]);
    const frame = (words: string) => ({ snapshot: snapshot([{ nodes: page([{ name: 'P', parent: 2, bounds: [0, 0, 300, 20] }, text(3, words, 0, 10)]) }]) });

    // Act
    const drawn = readSnapshots([
      { snapshot: snapshot([{ nodes: top }]) },
      { ...frame('owned'), owner: { part: 0, backendNodeId: 4 } },
      { ...frame('orphan'), orphan: true },
    ]);

    // Assess
    expect(drawn.pieces.map((piece) => [piece.text, piece.box.x, piece.box.y, piece.document])).toEqual([['owned', 102, 212, 1]]);
  });
});
