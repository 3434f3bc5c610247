/**
 * Redaction's part inside the page: hand the page's text to Node, then cover what Node found
 * before the picture. Each function is serialised alone (see in-page.ts): no helpers, no named inner functions.
 */

/** The slice of the DOM these functions use; Node's types have no DOM. */
interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface DomNode {
  nodeType: number;
  ownerDocument: DomDocument;
}
interface DomText extends DomNode {
  data: string;
  parentElement: DomElement | null;
}
interface DomElement extends DomNode {
  localName: string;
  parentElement: DomElement | null;
  shadowRoot: DomNode | null;
  contentDocument?: DomDocument | null;
  type?: string;
  value?: string;
  selectedOptions?: ArrayLike<{ text: string }>;
  clientLeft: number;
  clientTop: number;
  clientWidth: number;
  clientHeight: number;
  getBoundingClientRect(): Rect;
  getClientRects(): ArrayLike<Rect>;
  setAttribute(name: string, value: string): void;
  style: { setProperty(name: string, value: string, priority: string): void };
}
interface DomWalker {
  nextNode(): DomNode | null;
  nextSibling(): DomNode | null;
  parentNode(): DomNode | null;
}
interface DomWindow {
  frameElement: DomElement | null;
  parent: DomWindow;
  scrollX: number;
  scrollY: number;
  innerWidth: number;
  innerHeight: number;
  getComputedStyle(element: DomElement): { display: string; paddingLeft: string; paddingTop: string };
}
interface DomDocument extends DomNode {
  defaultView: DomWindow | null;
  documentElement: DomElement & { lang: string };
  createTreeWalker(root: DomNode, whatToShow: number): DomWalker;
  createRange(): { setStart(node: DomNode, offset: number): void; setEnd(node: DomNode, offset: number): void; surroundContents(element: DomElement): void };
  createElement(name: string): DomElement;
}

/** The page's text, in document order; `targets` stays in the page as a handle for `coverFindings`. */
export interface PageText {
  /** Each text node's text, or a form field's value. */
  texts: string[];
  /** What goes before each text when they are joined: '' in one inline run, ' ' across white space, '\n' across a block or <br>. */
  separators: string[];
  /** Whether each text is a form field's value (covered whole) rather than a text node. */
  fields: boolean[];
  /** The root element's `lang`, for reading national phone numbers. */
  lang: string;
}

export interface PageTextState extends PageText {
  targets: DomNode[];
}

/** One finding: ranges within the texts it spans. */
export interface FindingParts {
  parts: { target: number; start: number; end: number }[];
}

/** A box over a finding, in document CSS px of the top page. */
export interface CoverBox extends Rect {
  finding: number;
}

/**
 * Every text node (open shadow roots and same-origin frames included, not script, style,
 * template or SVG) and the value of every text-like form field. Nothing is changed.
 */
export function collectText(): PageTextState {
  const top = (globalThis as unknown as { document: DomDocument }).document;
  const state: PageTextState = { texts: [], separators: [], fields: [], lang: top.documentElement.lang ?? '', targets: [] };
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'option', 'datalist', 'head']);
  const NOT_TEXT = new Set(['hidden', 'password', 'checkbox', 'radio', 'file', 'color', 'range', 'image']);
  const blocks = new Map<DomElement, DomElement | null>();
  const roots: DomNode[] = [top];
  let lastBlock: DomElement | null | undefined;
  let pending = '\n';
  for (let root = roots.shift(); root; root = roots.shift()) {
    const walker = root.ownerDocument ? root.ownerDocument.createTreeWalker(root, 5) : (root as DomDocument).createTreeWalker(root, 5);
    let node = walker.nextNode();
    while (node) {
      let skip = false;
      if (node.nodeType === 1) {
        const element = node as DomElement;
        const name = element.localName;
        if (SKIP.has(name)) skip = true;
        else if (name === 'textarea' || name === 'select' || (name === 'input' && !NOT_TEXT.has(element.type ?? ''))) {
          const value = name === 'select' ? (element.selectedOptions?.[0]?.text ?? '') : (element.value ?? '');
          if (value.trim()) {
            state.texts.push(value);
            state.separators.push('\n');
            state.fields.push(true);
            state.targets.push(element);
          }
          lastBlock = undefined;
          skip = true;
        } else {
          if (element.shadowRoot) roots.push(element.shadowRoot);
          if (name === 'iframe' || name === 'frame') {
            try {
              if (element.contentDocument) roots.push(element.contentDocument);
            } catch {
              // A cross-origin frame: out of reach.
            }
          }
          if (name === 'br') pending = '\n';
        }
      } else {
        const text = node as DomText;
        // The nearest ancestor laid out as a block: text of one block reads as one line.
        let block = text.parentElement;
        const view = text.ownerDocument.defaultView;
        while (block && view) {
          let isBlock = blocks.get(block);
          if (isBlock === undefined) blocks.set(block, (isBlock = ['inline', 'contents'].includes(view.getComputedStyle(block).display) ? null : block));
          if (isBlock) break;
          block = block.parentElement;
        }
        if (block !== lastBlock) pending = '\n';
        lastBlock = block;
        if (!/\S/.test(text.data)) {
          if (pending === '') pending = ' ';
        } else {
          state.texts.push(text.data);
          state.separators.push(pending);
          state.fields.push(false);
          state.targets.push(text);
          pending = '';
        }
      }
      if (skip) {
        node = walker.nextSibling();
        while (!node && walker.parentNode()) node = walker.nextSibling();
      } else node = walker.nextNode();
    }
    lastBlock = undefined;
    pending = '\n';
  }
  return state;
}

/** The text of a `collectText` state, without the nodes (which cannot leave the page). */
export function pageText(state: PageTextState): PageText {
  return { texts: state.texts, separators: state.separators, fields: state.fields, lang: state.lang };
}

/**
 * Covers each finding: its text in a text node is wrapped in an element painted solid black with
 * the text itself transparent, so the box is drawn where the text would be, in its stacking
 * context, and no glyph of it is; a form field gets a black background and transparent text.
 * Answers each box (one per line fragment) in document CSS px of the top page, and the viewport.
 * Given the text the findings were found in (`foundIn`), changes nothing and answers null unless
 * `state` reads the same: the same texts, separators, fields and language.
 */
export function coverFindings(state: PageTextState, findings: FindingParts[], foundIn?: PageText): { boxes: CoverBox[]; viewport: Rect } | null {
  if (
    foundIn &&
    (foundIn.lang !== state.lang ||
      foundIn.texts.length !== state.texts.length ||
      !state.texts.every((text, i) => text === foundIn.texts[i] && state.separators[i] === foundIn.separators[i] && state.fields[i] === foundIn.fields[i]))
  )
    return null;
  const top = (globalThis as unknown as DomWindow & { document: DomDocument }).document.defaultView!;
  const STYLE =
    'all:unset!important;background:#000!important;color:transparent!important;-webkit-text-fill-color:transparent!important;text-shadow:none!important;opacity:1!important;filter:none!important;';
  const covered: { finding: number; element: DomElement; field: boolean }[] = [];
  // From the end of each text node back, so splitting leaves the offsets still to do in place.
  const parts = findings
    .flatMap((finding, index) => finding.parts.map((part) => ({ ...part, finding: index })))
    .sort((a, b) => a.target - b.target || b.start - a.start);
  for (const part of parts) {
    const target = state.targets[part.target]!;
    if (state.fields[part.target]) {
      const field = target as DomElement;
      for (const [name, value] of [
        ['background', '#000'],
        ['color', 'transparent'],
        ['-webkit-text-fill-color', 'transparent'],
        ['text-shadow', 'none'],
        ['caret-color', 'transparent'],
      ])
        field.style.setProperty(name!, value!, 'important');
      covered.push({ finding: part.finding, element: field, field: true });
      continue;
    }
    const range = target.ownerDocument.createRange();
    range.setStart(target, part.start);
    range.setEnd(target, part.end);
    const cover = target.ownerDocument.createElement('easel-redaction');
    cover.setAttribute('style', STYLE);
    range.surroundContents(cover);
    covered.push({ finding: part.finding, element: cover, field: false });
  }
  const boxes: CoverBox[] = [];
  for (const { finding, element, field } of covered) {
    // Frames' boxes are in their own viewport: add each frame's content box origin up to the top.
    let dx = top.scrollX;
    let dy = top.scrollY;
    for (let view = element.ownerDocument.defaultView; view?.frameElement; view = view.parent) {
      const frame = view.frameElement;
      const style = view.parent.getComputedStyle(frame);
      const box = frame.getBoundingClientRect();
      dx += box.x + frame.clientLeft + parseFloat(style.paddingLeft);
      dy += box.y + frame.clientTop + parseFloat(style.paddingTop);
    }
    if (field) {
      const box = element.getBoundingClientRect();
      boxes.push({ finding, x: box.x + element.clientLeft + dx, y: box.y + element.clientTop + dy, width: element.clientWidth, height: element.clientHeight });
      continue;
    }
    for (const rect of Array.from(element.getClientRects())) boxes.push({ finding, x: rect.x + dx, y: rect.y + dy, width: rect.width, height: rect.height });
  }
  return { boxes, viewport: { x: top.scrollX, y: top.scrollY, width: top.innerWidth, height: top.innerHeight } };
}
