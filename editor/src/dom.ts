/** DOM helpers. The page runs under a Trusted Types CSP, so nothing in the editor assigns HTML strings. */
import { ApiError } from './api.ts';

/** @throws Error when the page lacks the element or it is of another kind */
export function byId<T extends HTMLElement>(id: string, kind: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof kind)) throw new Error(`The page lacks #${id}`);
  return element;
}

/** Strings become text nodes. */
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

/** The message, the envelope's hint and the error reference; an empty container takes no room. */
export function showProblem(container: HTMLElement, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  const parts: Node[] = [h('p', { class: 'problem-message' }, message)];
  if (error instanceof ApiError) {
    if (error.hint) parts.push(h('p', { class: 'problem-hint' }, error.hint));
    if (error.documentation) parts.push(h('p', {}, h('a', { href: error.documentation, target: '_blank', rel: 'noopener' }, `About ${error.code}`)));
  }
  container.replaceChildren(...parts);
}

/** The container then takes no room. */
export function clearProblem(container: HTMLElement): void {
  container.replaceChildren();
}

/** The checked value of a radio group. */
export function radioValue(scope: ParentNode, name: string): string | undefined {
  return scope.querySelector<HTMLInputElement>(`input[type="radio"][name="${name}"]:checked`)?.value;
}

/** Checks the radio button of a group with this value. */
export function setRadio(scope: ParentNode, name: string, value: string): void {
  for (const input of scope.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${name}"]`)) input.checked = input.value === value;
}

/** Options from each entry's `id` and `name`. */
export function fillSelect(select: HTMLSelectElement, options: readonly { id: string; name: string }[]): void {
  select.replaceChildren(...options.map((option) => h('option', { value: option.id }, option.name)));
}

/**
 * Not `disabled`, which drops the keyboard focus to the page; the click handler must check
 * {@link isBusy}.
 */
export function setBusy(button: HTMLButtonElement, busy: boolean): void {
  if (busy) button.setAttribute('aria-disabled', 'true');
  else button.removeAttribute('aria-disabled');
}

/** See {@link setBusy}. */
export function isBusy(button: HTMLButtonElement): boolean {
  return button.getAttribute('aria-disabled') === 'true';
}

/** Whether fetch was aborted. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
