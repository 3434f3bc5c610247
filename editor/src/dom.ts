/**
 * Small DOM helpers. The page runs under a Trusted Types CSP, so nothing here (or anywhere in
 * the editor) assigns HTML strings: elements are created and text is set as text.
 */
import { ApiError } from './api.ts';

/** The element with this id, checked to be of the expected kind. */
export function byId<T extends HTMLElement>(id: string, kind: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof kind)) throw new Error(`The page lacks #${id}`);
  return element;
}

/** Creates an element with attributes and children (strings become text nodes). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  element.append(...children);
  return element;
}

/** "182.4 KB": decimal units, as file managers show sizes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(2)} MB`;
}

/**
 * Shows an error in a `role=alert` container: the message, the envelope's hint and a link to the
 * error reference when the API gave one. An empty container takes no room, so clearing it moves nothing.
 */
export function showProblem(container: HTMLElement, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const parts: Node[] = [h('p', { class: 'problem-message' }, message)];
  if (error instanceof ApiError) {
    if (error.hint) parts.push(h('p', { class: 'problem-hint' }, error.hint));
    if (error.documentation) parts.push(h('p', {}, h('a', { href: error.documentation, target: '_blank', rel: 'noopener' }, `About ${error.code}`)));
  }
  container.replaceChildren(...parts);
}

/** Empties a problem container (it then takes no room). */
export function clearProblem(container: HTMLElement): void {
  container.replaceChildren();
}

/** The value of the checked radio button of a group. */
export function radioValue(scope: ParentNode, name: string): string | undefined {
  return scope.querySelector<HTMLInputElement>(`input[type="radio"][name="${name}"]:checked`)?.value;
}

/** Checks the radio button of a group that has this value. */
export function setRadio(scope: ParentNode, name: string, value: string): void {
  for (const input of scope.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${name}"]`)) input.checked = input.value === value;
}

/** Fills a select with options (value, label). */
export function fillSelect(select: HTMLSelectElement, options: readonly { id: string; name: string }[]): void {
  select.replaceChildren(...options.map((option) => h('option', { value: option.id }, option.name)));
}

/**
 * Marks a button unavailable while keeping it focusable: a disabled button drops the keyboard
 * focus to the page, and a keyboard user would have to find their place again. Its click
 * handler must check {@link isBusy}.
 */
export function setBusy(button: HTMLButtonElement, busy: boolean): void {
  if (busy) button.setAttribute('aria-disabled', 'true');
  else button.removeAttribute('aria-disabled');
}

export function isBusy(button: HTMLButtonElement): boolean {
  return button.getAttribute('aria-disabled') === 'true';
}

/** Whether an error is the one fetch raises when its AbortController fires. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
