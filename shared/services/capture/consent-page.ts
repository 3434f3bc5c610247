/** blockBanners' script in every document (infra/assets/consent-script.ts): autoconsent, a guard on script clicks, dialog finders. */

/** The slice of the page's DOM used here; Node's types have no DOM. */
export interface PageElement {
  innerText: string;
  value?: string;
  style: { setProperty(name: string, value: string, priority: string): void };
  getAttribute(name: string): string | null;
  closest(selector: string): PageElement | null;
  matches(selector: string): boolean;
  contains(other: PageElement): boolean;
  checkVisibility(options?: { visibilityProperty?: boolean }): boolean;
  getBoundingClientRect(): { width: number; height: number };
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): Iterable<PageElement>;
  click(): void;
}
interface PageEvent {
  isTrusted: boolean;
  composedPath(): unknown[];
  preventDefault(): void;
  stopImmediatePropagation(): void;
}
interface PageWindow {
  top: unknown;
  location: { href: string };
  document: { body: PageElement | null };
  autoconsentStandalone?: ConsentPage;
  addEventListener(type: 'click', listener: (event: PageEvent) => void, capture: boolean): void;
  getComputedStyle(element: PageElement): { position: string };
}

/** What autoconsent's sources hand over (lib/web.ts, lib/heuristics.ts, lib/heuristic-patterns.ts). */
export interface Autoconsent<Rules> {
  AutoConsent: new (send: () => Promise<void>) => ConsentPage['instance'] & { initialize(config: object, rules: object): void };
  filterCompactRules(rules: Rules, where: { url: string; mainFrame: boolean }): unknown;
  heuristics: {
    checkHeuristicPatterns(text: string): { patterns: string[] };
    isExcludedPopup(text: string): boolean;
    isDialogLikeElement(element: PageElement): boolean;
    getButtonData(element: PageElement): { text: string; element: PageElement }[];
    classifyButtonTextRegex(text: string): 'reject' | 'settings' | 'accept' | 'acknowledge' | 'other';
    cleanButtonText(text: string): string;
  };
  /** Words of controls autoconsent's heuristics never click: pay, subscribe, … */
  neverMatch: RegExp[];
}

/** On `window.autoconsentStandalone`, for consent-in-page.ts. */
export interface ConsentPage {
  instance: {
    state: { lifecycle: string };
    foundCmp?: { prehideSelectors?: string[]; isCosmetic?: boolean };
  };
  /** Consent dialogs showing, by autoconsent's heuristics: the outermost not holding the page (an app's fixed shell is no dialog). */
  dialogs(): PageElement[];
  /** The control of `dialog` that refuses (reject, necessary only, continue without accepting), by autoconsent's words. */
  reject(dialog: PageElement): PageElement | undefined;
  /** The control of `dialog` that closes it: × or a name that says close, and nothing that accepts. */
  close(dialog: PageElement): PageElement | undefined;
  refused: string[];
}

/** No console logs (each a CDP event), pattern recording (reads innerText each pass) or heuristic action (it may click accept; the capture acts itself). */
const CONFIG = {
  isMainWorld: true,
  enableHeuristicDetection: false,
  heuristicMode: 'off',
  enablePopupMutationObserver: false,
  logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false },
};

const CONTROLS = 'button, input[type="button"], input[type="submit"], a, [role="button"]';
/** Switches and boxes a rule turns off to refuse: setting one is not accepting, whatever its name. */
const TOGGLES = 'input[type="checkbox"], input[type="radio"], [role="switch"], [role="checkbox"], [role="radio"], [aria-checked], [aria-pressed]';
/** A close control's whole label: a cross, or "close" in the languages of autoconsent's words. */
const CLOSE = /^(?:[×✕✖✗╳x]|close|close (?:dialog|banner|message|notice)|dismiss|schließen|fermer|cerrar|chiudi|sluiten|fechar|zamknij|stäng|luk|lukk)$/i;
/** What a page holds and a dialog does not: an element holding one is the page's shell, not a dialog. */
const PAGE = 'main, [role="main"], article, nav';
/** The longest a search for dialogs walks the page, as autoconsent's own search. */
const SEARCH_MS = 100;

const wordsOf = (control: PageElement) => {
  const words = control.innerText?.trim() || control.value?.trim() || control.getAttribute('aria-label')?.trim() || control.getAttribute('title')?.trim();
  return (words ?? '').slice(0, 200);
};

const shows = (element: PageElement) => {
  const box = element.getBoundingClientRect();
  return box.width > 0 && box.height > 0 && element.checkVisibility({ visibilityProperty: true });
};

/** Starts autoconsent and the guard once per document; `rules` is autoconsent's indexed rule set. */
export function startConsent<Rules>(given: Autoconsent<Rules>, rules: Rules): void {
  const page = globalThis as unknown as PageWindow;
  if (page.autoconsentStandalone) return;
  const { heuristics } = given;
  const refused: string[] = [];
  const refuses = (words: string) =>
    heuristics.classifyButtonTextRegex(words) === 'accept' || given.neverMatch.some((pattern) => pattern.test(heuristics.cleanButtonText(words)));

  // A script's click (autoconsent's rules, its eval snippets, this file) on a control that accepts,
  // subscribes or pays is stopped before the page sees it. A person's click (isTrusted) passes.
  page.addEventListener(
    'click',
    (event) => {
      if (event.isTrusted) return;
      const target = event.composedPath()[0] as PageElement | undefined;
      const control = target?.closest?.(CONTROLS) ?? target;
      if (!control?.getAttribute || control.matches(TOGGLES)) return;
      const words = wordsOf(control);
      if (!words || !refuses(words)) return;
      event.preventDefault();
      event.stopImmediatePropagation();
      refused.push(words);
    },
    true,
  );

  const compact = given.filterCompactRules(rules, { url: page.location.href, mainFrame: page.top === page });
  const instance = new given.AutoConsent(() => Promise.resolve());
  const speaks = (element: PageElement) => {
    const text = element.innerText?.trim() ?? '';
    return text !== '' && heuristics.checkHeuristicPatterns(text).patterns.length > 0 && !heuristics.isExcludedPopup(text);
  };
  page.autoconsentStandalone = {
    instance,
    refused,
    dialogs() {
      if (!page.document.body) return [];
      const until = performance.now() + SEARCH_MS;
      const found: PageElement[] = [];
      for (const element of page.document.body.querySelectorAll('*')) {
        if (performance.now() > until) break;
        // Inside one already found: its own sticky footer or inner box is part of it.
        if (found.some((outer) => outer.contains(element))) continue;
        const position = page.getComputedStyle(element).position;
        const popup = position === 'fixed' || position === 'sticky' || heuristics.isDialogLikeElement(element);
        if (popup && shows(element) && speaks(element) && !element.querySelector(PAGE)) found.push(element);
      }
      return found;
    },
    reject: (dialog) => heuristics.getButtonData(dialog).find((button) => heuristics.classifyButtonTextRegex(button.text) === 'reject')?.element,
    close: (dialog) =>
      [...dialog.querySelectorAll(CONTROLS)].find((control) => {
        const words = control.getAttribute('aria-label')?.trim() || control.getAttribute('title')?.trim() || control.innerText?.trim() || '';
        return shows(control) && CLOSE.test(words) && !refuses(words);
      }),
  };
  instance.initialize(CONFIG, { autoconsent: [], compact });
}
