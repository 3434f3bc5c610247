/** The Web page panel's capture options, read into the request fields of POST /api/screenshot (only those not at their default). */
import { byId } from '../dom.ts';
import { AdvancedProblem, advancedFields } from '../model/capture-request.ts';
import type { AdvancedFields } from '../model/capture-request.ts';
import { controlOf, readAdvancedInput } from './capture-advanced.ts';

/** The bounds of shared/schemas/screenshot.ts, checked here so a slip is named before a request. */
export const MAX_HIDE_SELECTORS = 20;
export const MAX_DELAY_MS = 10_000;

export interface CaptureOptions extends AdvancedFields {
  fullPage?: true;
  selector?: string;
  waitForSelector?: string;
  delay?: number;
  hideSelectors?: string[];
  blockBanners?: true;
  blockAds?: true;
}

/** A value the panel refuses, with the control to focus. */
export class OptionError extends Error {
  readonly control: HTMLElement;

  constructor(message: string, control: HTMLElement) {
    super(message);
    this.name = 'OptionError';
    this.control = control;
  }
}

/**
 * One selector per line, or several separated by commas. A comma inside brackets, parentheses or
 * quotes (`:is(a, b)`, `[title="a,b"]`) belongs to its selector.
 */
export function splitSelectors(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let depth = 0;
  let quote = '';
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === '"' || char === "'") quote = char;
    else if (char === '(' || char === '[') depth += 1;
    else if (char === ')' || char === ']') depth = Math.max(0, depth - 1);
    else if (char === '\n' || (char === ',' && depth === 0)) {
      parts.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/**
 * The options as chosen in the panel.
 * @throws OptionError for a delay out of range, too many hide selectors, or an Advanced value the API would refuse
 */
export function readCaptureOptions(): CaptureOptions {
  const options: CaptureOptions = {};
  if (byId('capture-full-page', HTMLInputElement).checked) options.fullPage = true;
  const selector = byId('capture-selector', HTMLInputElement).value.trim();
  if (selector !== '') options.selector = selector;
  const waitFor = byId('capture-wait-for', HTMLInputElement).value.trim();
  if (waitFor !== '') options.waitForSelector = waitFor;
  const delayInput = byId('capture-delay', HTMLInputElement);
  const delayText = delayInput.value.trim();
  // A number field answers '' for text it cannot read; badInput tells that apart from empty.
  if (delayInput.validity.badInput || (delayText !== '' && !/^\d+$/.test(delayText)) || Number(delayText) > MAX_DELAY_MS) {
    throw new OptionError(`The delay is a whole number of milliseconds from 0 to ${MAX_DELAY_MS.toLocaleString('en')}.`, delayInput);
  }
  if (delayText !== '' && Number(delayText) > 0) options.delay = Number(delayText);
  const hideInput = byId('capture-hide', HTMLTextAreaElement);
  const hide = splitSelectors(hideInput.value);
  if (hide.length > MAX_HIDE_SELECTORS) throw new OptionError(`At most ${MAX_HIDE_SELECTORS} selectors can be hidden; ${hide.length} are listed.`, hideInput);
  if (hide.length > 0) options.hideSelectors = hide;
  if (byId('capture-clean', HTMLInputElement).checked) {
    options.blockBanners = true;
    options.blockAds = true;
  }
  try {
    return { ...options, ...advancedFields(readAdvancedInput()) };
  } catch (error) {
    if (error instanceof AdvancedProblem) throw new OptionError(error.message, controlOf(error));
    throw error;
  }
}
