/** blockBanners' work inside the page (conventions of in-page.ts): look, click, hide, and undo what a dialog left. */
import type { ConsentPage } from '#shared/services/capture/consent-page.ts';

export interface ConsentLook {
  lifecycle: string;
  /** autoconsent's rule for the dialog only hides it (a cosmetic rule). */
  cosmetic: boolean;
  /** Known containers (and the found rule's own) that show. */
  known: number;
  /** Dialogs that speak of consent and show (consent-page.ts). */
  dialogs: number;
}

export type ConsentControl = 'reject' | 'close';

/** The slice of the page's DOM used here; Node's types have no DOM. */
interface Visible {
  checkVisibility(options?: { visibilityProperty?: boolean; opacityProperty?: boolean }): boolean;
}
interface PageElement extends Visible {
  innerText: string;
  style: { setProperty(name: string, value: string, priority: string): void };
  getBoundingClientRect(): { left: number; top: number; right: number; bottom: number; width: number; height: number };
  querySelectorAll(selector: string): Iterable<PageElement>;
  children: Iterable<PageElement>;
  shadowRoot: unknown;
}
interface PageSheet {
  replaceSync(text: string): void;
}
interface PageGlobal {
  autoconsentStandalone?: Partial<ConsentPage>;
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
    filter: string;
  };
}

/** A container counts when it has words and a part shows (often a zero-size box around fixed parts); not by opacity, which autoconsent zeroes. */
export function consentLook(containers: string[]): ConsentLook {
  const page = globalThis as unknown as PageGlobal;
  const consent = page.autoconsentStandalone;
  const state = consent?.instance?.state;
  const shows = { visibilityProperty: true };
  let known = 0;
  for (const selector of [...containers, ...(consent?.instance?.foundCmp?.prehideSelectors ?? [])]) {
    let matches: Iterable<PageElement> = [];
    try {
      matches = page.document.querySelectorAll(selector);
    } catch {
      // A rule's selector this browser cannot parse names nothing here.
    }
    for (const container of matches) {
      // A backdrop is not the dialog: a dialog has words, in the document or in its shadow root.
      if (!container.checkVisibility(shows) || (container.innerText.trim() === '' && !container.shadowRoot)) continue;
      const parts = [container, ...container.querySelectorAll('*')];
      const showing = parts.some((part) => {
        const box = part.getBoundingClientRect();
        return box.width > 0 && box.height > 0 && part.checkVisibility(shows);
      });
      if (showing) known += 1;
    }
  }
  return {
    lifecycle: state?.lifecycle ?? 'absent',
    cosmetic: consent?.instance?.foundCmp?.isCosmetic === true,
    known,
    dialogs: consent?.dialogs?.().length ?? 0,
  };
}

/** Clicks the first `control` of a showing dialog that has one; false where none has. */
export function consentClick(control: ConsentControl): boolean {
  const consent = (globalThis as unknown as PageGlobal).autoconsentStandalone;
  for (const dialog of consent?.dialogs?.() ?? []) {
    const found = consent?.[control]?.(dialog);
    if (!found) continue;
    found.click();
    return true;
  }
  return false;
}

/** Hides the known containers (now and when they appear later), the found rule's, and, if asked, each consent dialog showing. */
export function consentHide({ containers, dialogs }: { containers: string[]; dialogs: boolean }): void {
  const page = globalThis as unknown as PageGlobal;
  const consent = page.autoconsentStandalone;
  const sheet = new page.CSSStyleSheet();
  // One rule each: a selector the browser cannot parse drops its own rule only.
  const rules = [containers.join(','), ...(consent?.instance?.foundCmp?.prehideSelectors ?? [])];
  sheet.replaceSync(rules.map((selector) => `${selector}{display:none !important}`).join('\n'));
  page.document.adoptedStyleSheets = [...page.document.adoptedStyleSheets, sheet];
  if (dialogs) for (const dialog of consent?.dialogs?.() ?? []) dialog.style.setProperty('display', 'none', 'important');
}

/** Once a dialog is gone, undoes what it left (see-through layers, html and body overflow or position, outer blurs); no named inner functions. */
export function clearLeftovers(): string[] {
  const page = globalThis as unknown as PageGlobal;
  const root = page.document;
  const look = { visibilityProperty: true, opacityProperty: true };
  const cleared: string[] = [];
  if (!root.body) return cleared;

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
  // A wall blurs the page around it, not a picture within it: only the page's outer boxes.
  for (const element of [root.documentElement, root.body, ...root.body.children]) {
    if (!/blur\(/.test(page.getComputedStyle(element).filter)) continue;
    element.style.setProperty('filter', 'none', 'important');
    cleared.push('blur');
  }
  return cleared;
}
