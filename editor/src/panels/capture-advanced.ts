/**
 * The Advanced options of the Web page tab beyond the selectors: viewport, cookie and header rows,
 * user agent, click, CSS and reduced motion. Cookies and headers live only in these controls.
 */
import { byId, h, radioValue } from '../dom.ts';
import { type AdvancedProblem, CUSTOM_VIEWPORT, mergeRows, parseCookieHeader } from '../model/capture-request.ts';
import type { AdvancedControl, AdvancedInput, NameValue } from '../model/capture-request.ts';

type Kind = 'cookie' | 'header';
const LIST_ID: Record<Kind, string> = { cookie: 'capture-cookies', header: 'capture-headers' };

function rowsOf(kind: Kind): HTMLLIElement[] {
  return [...byId(LIST_ID[kind], HTMLUListElement).children].filter((item) => item instanceof HTMLLIElement);
}

/** Numbers the rows' labels after one is added or removed. */
function relabel(kind: Kind): void {
  const title = kind === 'cookie' ? 'Cookie' : 'Header';
  rowsOf(kind).forEach((item, index) => {
    const [name, value, remove] = [item.querySelector('.pair-name'), item.querySelector('.pair-value'), item.querySelector('button')];
    name?.setAttribute('aria-label', `${title} ${index + 1} name`);
    value?.setAttribute('aria-label', `${title} ${index + 1} value`);
    remove?.setAttribute('aria-label', `Remove ${kind} ${index + 1}`);
  });
}

// No name attribute and no autocomplete: a credential is never submitted with the form nor remembered by the browser.
function field(className: string, placeholder: string, value: string): HTMLInputElement {
  const input = h('input', { type: 'text', class: className, autocomplete: 'off', spellcheck: 'false', placeholder });
  input.value = value;
  return input;
}

function addRow(kind: Kind, pair: NameValue = { name: '', value: '' }): HTMLLIElement {
  const list = byId(LIST_ID[kind], HTMLUListElement);
  const name = field('pair-name', kind === 'cookie' ? 'session' : 'X-Api-Key', pair.name);
  const value = field('pair-value', 'value', pair.value);
  const remove = h('button', { type: 'button', class: 'pair-remove' }, '×');
  const item = h('li', { class: 'pair', 'data-kind': kind }, name, value, remove);
  remove.addEventListener('click', () => {
    const next = item.nextElementSibling ?? item.previousElementSibling;
    item.remove();
    relabel(kind);
    // Removing the focused button would drop the focus to the page.
    (next?.querySelector<HTMLElement>('.pair-name') ?? byId(`capture-add-${kind}`, HTMLButtonElement)).focus();
  });
  list.append(item);
  relabel(kind);
  return item;
}

function pairs(kind: Kind): NameValue[] {
  return rowsOf(kind).map((item) => ({
    name: item.querySelector<HTMLInputElement>('.pair-name')?.value ?? '',
    value: item.querySelector<HTMLInputElement>('.pair-value')?.value ?? '',
  }));
}

/** Turns what was pasted into cookie rows, then empties the paste box. */
function takePaste(text: string): void {
  const pasted = parseCookieHeader(text);
  const status = byId('capture-cookie-paste-status', HTMLParagraphElement);
  byId('capture-cookie-paste', HTMLInputElement).value = '';
  if (pasted.length === 0) {
    status.textContent = 'No name=value pairs in that text.';
    return;
  }
  for (const item of rowsOf('cookie')) item.remove();
  for (const pair of mergeRows(pairs('cookie'), pasted)) addRow('cookie', pair);
  // Names only: values are credentials.
  status.textContent = `Cookies ${pasted.map((cookie) => cookie.name).join(', ')} added.`;
}

function wirePaste(): void {
  const paste = byId('capture-cookie-paste', HTMLInputElement);
  paste.addEventListener('paste', (event) => {
    const text = event.clipboardData?.getData('text/plain');
    if (text === undefined) return;
    event.preventDefault();
    takePaste(text);
  });
  // Enter would submit the capture: here it reads what was typed.
  paste.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    if (paste.value.trim() !== '') takePaste(paste.value);
  });
  paste.addEventListener('change', () => {
    if (paste.value.trim() !== '') takePaste(paste.value);
  });
}

/** Binds the controls: the custom size shows only for Custom, the rows' Add buttons, the paste box. */
export function wireAdvanced(): void {
  const viewport = byId('capture-viewport', HTMLSelectElement);
  const custom = byId('capture-viewport-custom', HTMLDivElement);
  const sync = () => {
    custom.hidden = viewport.value !== CUSTOM_VIEWPORT;
  };
  viewport.addEventListener('change', sync);
  sync();
  for (const kind of ['cookie', 'header'] as const) {
    byId(`capture-add-${kind}`, HTMLButtonElement).addEventListener('click', () => addRow(kind).querySelector<HTMLInputElement>('.pair-name')?.focus());
  }
  wirePaste();
}

export function readAdvancedInput(): AdvancedInput {
  return {
    scale: radioValue(byId('panel-capture', HTMLFormElement), 'device') === 'mobile' ? 2 : 1,
    viewport: byId('capture-viewport', HTMLSelectElement).value,
    customWidth: byId('capture-viewport-width', HTMLInputElement).value,
    customHeight: byId('capture-viewport-height', HTMLInputElement).value,
    cookies: pairs('cookie'),
    headers: pairs('header'),
    userAgent: byId('capture-user-agent', HTMLInputElement).value,
    click: byId('capture-click', HTMLInputElement).value,
    css: byId('capture-css', HTMLTextAreaElement).value,
    reducedMotion: byId('capture-reduced-motion', HTMLInputElement).checked,
  };
}

const FIELD_ID = {
  width: 'capture-viewport-width',
  height: 'capture-viewport-height',
  userAgent: 'capture-user-agent',
  click: 'capture-click',
  css: 'capture-css',
} as const;

/** The control a refusal names, to focus. */
export function controlOf(problem: AdvancedProblem): HTMLElement {
  const control: AdvancedControl = problem.control;
  if (control.field === 'cookies' || control.field === 'headers') {
    const item = rowsOf(control.field === 'cookies' ? 'cookie' : 'header')[control.row];
    const input = item?.querySelector<HTMLElement>(control.part === 'name' ? '.pair-name' : '.pair-value');
    if (input) return input;
    return byId(control.field === 'cookies' ? 'capture-add-cookie' : 'capture-add-header', HTMLButtonElement);
  }
  return byId(FIELD_ID[control.field], HTMLElement);
}
