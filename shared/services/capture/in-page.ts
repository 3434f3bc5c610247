/** Run in the captured page, each serialised alone with its arguments as data: a caller's selector is only ever a string, never code. */

/** The slice of the page's DOM these functions use; Node's types have no DOM. */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface PageElement {
  getBoundingClientRect(): Box;
}
interface PageRule {
  selectorText: string;
}
interface PageSheet {
  cssRules: { readonly length: number; [index: number]: PageRule };
  insertRule(rule: string, index: number): number;
  deleteRule(index: number): void;
  replaceSync(text: string): void;
}
interface PageAnimation {
  effect: { getComputedTiming(): { iterations: number }; updateTiming(timing: { iterations: number }): void } | null;
  finish(): void;
}
interface PageImage extends PageElement {
  complete: boolean;
  naturalWidth: number;
  currentSrc: string;
  src: string;
}
interface PageGlobal {
  document: {
    querySelector(selector: string): PageElement | null;
    images: ArrayLike<PageImage>;
    title: string;
    fonts: { status: string };
    documentElement: PageElement & { scrollHeight: number };
    body: { scrollHeight: number; innerText: string } | null;
    adoptedStyleSheets: PageSheet[];
    getAnimations(): PageAnimation[];
  };
  CSSStyleSheet: new () => PageSheet;
  getComputedStyle(element: PageElement): { visibility: string; display: string; opacity: string };
  scrollX: number;
  scrollY: number;
  innerWidth: number;
  innerHeight: number;
  scrollTo(options: { top: number; left: number; behavior: 'instant' }): void;
  requestAnimationFrame(callback: () => void): number;
  setTimeout(callback: () => void, ms: number): number;
  clearTimeout(id: number): void;
}

export function firstInvalidSelector(selectors: string[]): number {
  const page = globalThis as unknown as PageGlobal;
  return selectors.findIndex((selector) => {
    try {
      page.document.querySelector(selector);
      return false;
    } catch {
      return true;
    }
  });
}

/** Whether an element matches and shows: laid out with a box, not visibility: hidden. */
export function isVisible(selector: string): boolean {
  const page = globalThis as unknown as PageGlobal;
  const element = page.document.querySelector(selector);
  if (!element) return false;
  const style = page.getComputedStyle(element);
  const box = element.getBoundingClientRect();
  return style.visibility !== 'hidden' && style.display !== 'none' && box.width > 0 && box.height > 0;
}

export function documentBox(selector: string): Box | null {
  const page = globalThis as unknown as PageGlobal;
  const element = page.document.querySelector(selector);
  if (!element) return null;
  const box = element.getBoundingClientRect();
  return { x: box.x + page.scrollX, y: box.y + page.scrollY, width: box.width, height: box.height };
}

/** Each rule starts on a selector that matches nothing and takes the caller's through selectorText, which ignores what is not a selector. */
export function hideMatches(selectors: string[]): void {
  const page = globalThis as unknown as PageGlobal;
  const sheet = new page.CSSStyleSheet();
  for (const selector of selectors) {
    for (const target of [selector, `:is(${selector}) *`]) {
      const index = sheet.insertRule(':not(*) { visibility: hidden !important; }', sheet.cssRules.length);
      sheet.cssRules[index]!.selectorText = target;
    }
  }
  page.document.adoptedStyleSheets = [...page.document.adoptedStyleSheets, sheet];
}

/** The request's css as one more adopted style sheet: parsed as CSS only, never as markup. */
export function adoptStyleSheet(css: string): void {
  const page = globalThis as unknown as PageGlobal;
  const sheet = new page.CSSStyleSheet();
  sheet.replaceSync(css);
  page.document.adoptedStyleSheets = [...page.document.adoptedStyleSheets, sheet];
}

/** Ends animations at their end (an endless one after one iteration), two frames on, so those started by requestAnimationFrame after load exist. */
export async function finishAnimations(): Promise<number> {
  const page = globalThis as unknown as PageGlobal;
  let timer = 0;
  await new Promise<void>((resolve) => {
    timer = page.setTimeout(resolve, 250);
    page.requestAnimationFrame(() => page.requestAnimationFrame(() => resolve()));
  });
  // Not left pending: settling counts the page's timers.
  page.clearTimeout(timer);
  const animations = page.document.getAnimations();
  for (const animation of animations) {
    try {
      if (animation.effect && animation.effect.getComputedTiming().iterations === Number.POSITIVE_INFINITY) animation.effect.updateTiming({ iterations: 1 });
      animation.finish();
    } catch {
      // One that cannot finish (a zero playback rate) stays as it is.
    }
  }
  return animations.length;
}

/**
 * Scrolls a screen at a time from `from` to the end (or `maxHeight` CSS px) and back; answers the page's height. Each screen is
 * held a frame so lazy loaders see it; the page is transparent meanwhile, so no screen on the way is painted for the picture
 * to wait behind. No named inner functions: the bundler would name them through a helper the page lacks (test/infra/in-page-bundle.test.ts).
 */
export async function scrollThrough(maxHeight: number, from = 0): Promise<number> {
  const page = globalThis as unknown as PageGlobal;
  const root = page.document;
  const veil = new page.CSSStyleSheet();
  veil.insertRule(':root { opacity: 0 !important; transition: none !important; }', 0);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, veil];
  // Timers of its own are cleared once they are not needed: settling counts the page's timers.
  let timer = 0;
  try {
    for (
      let top = Math.max(page.innerHeight, from);
      top < Math.min(Math.max(root.documentElement.scrollHeight, root.body?.scrollHeight ?? 0), maxHeight);
      top += page.innerHeight
    ) {
      page.scrollTo({ top, left: 0, behavior: 'instant' });
      await new Promise<void>((resolve) => {
        timer = page.setTimeout(resolve, 100);
        // The task after a frame: its update has laid out this screen and run the observers on it.
        page.requestAnimationFrame(() => page.setTimeout(resolve, 0));
      });
      page.clearTimeout(timer);
    }
    // Observers get their entries in a task after that update: a frame more, so the last screen's have run.
    await new Promise<void>((resolve) => {
      timer = page.setTimeout(resolve, 100);
      page.requestAnimationFrame(() => page.requestAnimationFrame(resolve));
    });
    page.clearTimeout(timer);
  } finally {
    // Opaque again at once: a transition of the page's on :root would fade it in from nothing.
    veil.deleteRule(0);
    veil.insertRule(':root { transition: none !important; }', 0);
    void page.getComputedStyle(root.documentElement).opacity;
    root.adoptedStyleSheets = root.adoptedStyleSheets.filter((sheet) => sheet !== veil);
    page.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  }
  return Math.max(root.documentElement.scrollHeight, root.body?.scrollHeight ?? 0);
}

export function pageHeight(): number {
  const root = (globalThis as unknown as PageGlobal).document;
  return Math.max(root.documentElement.scrollHeight, root.body?.scrollHeight ?? 0);
}

/** A bot challenge's marks: any element matching `selector`, or a title starting with `title`; `short` only on a page of little text. */
export interface ChallengeSign {
  name: string;
  selector?: string;
  title?: string;
  short?: boolean;
}

/** What the picture (`shown`, document CSS px; null: the viewport) shows: its images and how many loaded, fonts ready, a bot challenge. */
export function pageFacts(shown: Box | null, signs: ChallengeSign[]): { images: { found: number; loaded: number }; fontsReady: boolean; challenge?: string } {
  const page = globalThis as unknown as PageGlobal;
  const root = page.document;
  const area = shown ?? { x: page.scrollX, y: page.scrollY, width: page.innerWidth, height: page.innerHeight };
  let found = 0;
  let loaded = 0;
  for (const image of Array.from(root.images)) {
    const box = image.getBoundingClientRect();
    const x = box.x + page.scrollX;
    const y = box.y + page.scrollY;
    const inside = x < area.x + area.width && y < area.y + area.height && x + box.width > area.x && y + box.height > area.y;
    // currentSrc stays empty until the image arrives: one still pending has only its src.
    if (!(image.currentSrc || image.src) || box.width < 1 || box.height < 1 || !inside) continue;
    found += 1;
    if (image.complete && image.naturalWidth > 0) loaded += 1;
  }
  // A form's captcha is not a challenge page; one that is most of a short page is.
  const short = (root.body?.innerText.length ?? 0) < 1_000;
  const challenge = signs.find(
    (sign) =>
      (!sign.short || short) &&
      ((sign.title !== undefined && root.title.startsWith(sign.title)) || (sign.selector !== undefined && root.querySelector(sign.selector) !== null)),
  );
  return { images: { found, loaded }, fontsReady: root.fonts.status === 'loaded', ...(challenge ? { challenge: challenge.name } : {}) };
}
