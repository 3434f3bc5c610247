/** DOM helpers. The page runs under a Trusted Types CSP, so nothing in the editor assigns HTML strings. */
import { ApiError } from './io/api.ts';
import { explain } from './io/problem-text.ts';
import type { Explanation } from './io/failure.ts';

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

/**
 * What went wrong and what to do, in words for people (`words`, else problem-text.ts's); for an
 * API failure, the envelope's own message, hint and reference follow in a closed "Details" for
 * whoever reports it.
 */
export function showProblem(container: HTMLElement, error: unknown, words?: Explanation): void {
  if (!(error instanceof ApiError)) {
    container.replaceChildren(h('p', { class: 'problem-message' }, error instanceof Error ? error.message : String(error)));
    delete container.dataset.code;
    return;
  }
  const { message, advice } = words ?? explain(error);
  const details = [`${error.message}.`.replace(/\.\.$/, '.'), error.hint].filter(Boolean).join(' ');
  const reference = error.documentation ? [' ', h('a', { href: error.documentation, target: '_blank', rel: 'noopener' }, 'What this error means')] : [];
  container.replaceChildren(
    h('p', { class: 'problem-message' }, message),
    h('p', { class: 'problem-advice' }, advice),
    h(
      'details',
      { class: 'problem-details' },
      h('summary', {}, 'Details'),
      h('p', { class: 'problem-api' }, `${error.status || 'No answer'} ${error.code}: ${details}`, ...reference),
    ),
  );
  container.dataset.code = error.code;
}

/** The container then takes no room. */
export function clearProblem(container: HTMLElement): void {
  container.replaceChildren();
  delete container.dataset.code;
}

/**
 * A later message clears an earlier failure: each status line named by a problem box's
 * `data-cleared-by` empties that box when its text changes, unless the box was filled in the same
 * turn (a failure writes its status line and its problem together).
 */
export function clearStaleProblems(root: ParentNode = document): void {
  const watch = { childList: true, characterData: true, subtree: true };
  for (const problem of root.querySelectorAll<HTMLElement>('[data-cleared-by]')) {
    const observer = new MutationObserver((records) => {
      const filled = records.some((record) => problem.contains(record.target));
      if (!filled && problem.hasChildNodes()) clearProblem(problem);
    });
    observer.observe(problem, watch);
    for (const id of (problem.dataset.clearedBy ?? '').split(/\s+/).filter(Boolean)) observer.observe(byId(id, HTMLElement), watch);
  }
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
