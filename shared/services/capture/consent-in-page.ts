/**
 * blockBanners' work inside the page (conventions of in-page.ts: self-contained, arguments as
 * data): autoconsent's state read, known containers hidden, and what a dismissed dialog leaves.
 */

/** What became of the page's consent dialog. */
export type ConsentResult = 'opted-out' | 'hidden' | 'shown' | 'none';

export interface ConsentOutcome {
  /**
   * `opted-out`: autoconsent opted out of it; `hidden`: a known consent container showed and was
   * hidden; `shown`: autoconsent found a dialog it could not dismiss and nothing hid it; `none`.
   */
  result: ConsentResult;
  /** autoconsent's lifecycle state at the end, `absent` where it never ran. */
  lifecycle: string;
  /** What the dialog left and was undone: `backdrop` (each), `html|body overflow`, `html|body position`. */
  cleared: string[];
}

export interface ConsentStep {
  /** True on the last call: finish even while autoconsent is still at work. */
  force: boolean;
  containers: string[];
  /** autoconsent's states: still at work on a dialog, searching, opted out, and having found one open. */
  busy: string[];
  searching: string[];
  succeeded: string[];
  found: string[];
  /** Elements that present themselves as dialogs, and words that make one a consent dialog. */
  dialogs: string;
  words: string;
}

/** The slice of the page's DOM used here; Node's types have no DOM. */
interface Visible {
  checkVisibility(options?: { visibilityProperty?: boolean; opacityProperty?: boolean }): boolean;
}
interface PageElement extends Visible {
  innerText: string;
  style: { setProperty(name: string, value: string, priority: string): void };
  getBoundingClientRect(): { left: number; top: number; right: number; bottom: number; width: number; height: number };
  querySelectorAll(selector: string): Iterable<PageElement>;
}
interface PageSheet {
  replaceSync(text: string): void;
}
interface PageGlobal {
  autoconsentStandalone?: { instance?: { state?: { lifecycle?: string } } };
  document: {
    documentElement: PageElement & { clientWidth: number; clientHeight: number };
    body: PageElement | null;
    querySelectorAll(selector: string): Iterable<PageElement>;
    adoptedStyleSheets: PageSheet[];
  };
  CSSStyleSheet: new () => PageSheet;
  getComputedStyle(element: PageElement): {
    position: string;
    overflowY: string;
    zIndex: string;
    opacity: string;
    backgroundColor: string;
    backdropFilter: string;
  };
}

/**
 * One round trip: autoconsent's state while it is at work (unless `force`), else the outcome.
 * A dialog counts as found when autoconsent found one open or a known container shows; only then
 * are its leftovers undone: fixed, viewport-wide, see-through layers holding nothing visible, and
 * vertical overflow or fixed position on html and body. No named inner functions (in-page.ts).
 */
export function consentStep(step: ConsentStep): ConsentOutcome | string {
  const page = globalThis as unknown as PageGlobal;
  const root = page.document;
  const lifecycle = page.autoconsentStandalone?.instance?.state?.lifecycle ?? 'absent';
  const look = { visibilityProperty: true, opacityProperty: true };
  // Not opacity: autoconsent makes the containers it knows transparent while it works on them.
  const shows = { visibilityProperty: true };
  if (!step.force && step.busy.includes(lifecycle)) return lifecycle;
  const selector = step.containers.join(',');
  let known = false;
  for (const container of root.querySelectorAll(selector)) {
    if (known || !container.checkVisibility(shows)) continue;
    // A container is often a box of no size around fixed parts: one of them must show.
    known = [container, ...container.querySelectorAll('*')].some((part) => {
      const box = part.getBoundingClientRect();
      return box.width > 0 && box.height > 0 && part.checkVisibility(shows);
    });
  }
  // Before its search ends, autoconsent is waited for on a known container or a dialog that speaks
  // of consent: its heuristics, which find unknown dialogs, only look on its second search.
  if (!step.force && step.searching.includes(lifecycle)) {
    if (known) return lifecycle;
    const words = new RegExp(step.words, 'i');
    for (const dialog of root.querySelectorAll(step.dialogs)) if (dialog.checkVisibility(shows) && words.test(dialog.innerText)) return lifecycle;
  }
  // Always: a container that shows up later is hidden too.
  const sheet = new page.CSSStyleSheet();
  sheet.replaceSync(`${selector}{display:none !important}`);
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  const opted = step.succeeded.includes(lifecycle);
  const result: ConsentResult = opted ? 'opted-out' : known ? 'hidden' : step.found.includes(lifecycle) ? 'shown' : 'none';
  const cleared: string[] = [];
  if ((result !== 'opted-out' && result !== 'hidden') || !root.body) return { result, lifecycle, cleared };

  const width = root.documentElement.clientWidth;
  const height = root.documentElement.clientHeight;
  const backdrops: PageElement[] = [];
  for (const element of root.body.querySelectorAll('*')) {
    const style = page.getComputedStyle(element);
    if (style.position !== 'fixed' || Number(style.zIndex) < 0 || !element.checkVisibility(look)) continue;
    const box = element.getBoundingClientRect();
    if (box.left > 1 || box.top > 1 || box.right < width - 1 || box.bottom < height - 1) continue;
    const channels = /^rgba\(.*,\s*([\d.]+)\)$/.exec(style.backgroundColor);
    const alpha = (channels ? Number(channels[1]) : style.backgroundColor.startsWith('rgb(') ? 1 : 0) * Number(style.opacity);
    const dims = (alpha > 0 && alpha < 1) || style.backdropFilter !== 'none';
    if (!dims || element.innerText.trim() !== '') continue;
    // What it holds without text must not show either: a picture or a control is content.
    if ([...element.querySelectorAll('img,svg,video,canvas,iframe,object,embed,input,select,textarea,button')].some((part) => part.checkVisibility(look)))
      continue;
    backdrops.push(element);
  }
  for (const backdrop of backdrops) {
    backdrop.style.setProperty('display', 'none', 'important');
    cleared.push('backdrop');
  }
  for (const [name, element] of [
    ['html', root.documentElement],
    ['body', root.body],
  ] as const) {
    const style = page.getComputedStyle(element);
    const overflow = style.overflowY === 'hidden' || style.overflowY === 'clip';
    const fixed = style.position === 'fixed';
    // Inline and important: above the page's own rules, inline ones included.
    if (overflow) element.style.setProperty('overflow-y', 'visible', 'important');
    if (overflow) cleared.push(`${name} overflow`);
    if (fixed) element.style.setProperty('position', 'static', 'important');
    if (fixed) cleared.push(`${name} position`);
  }
  return { result, lifecycle, cleared };
}
