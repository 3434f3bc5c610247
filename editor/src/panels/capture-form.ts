/** The Web page tab: a capture request read from the form, its progress, and the cool-down after a 429. */
import { ApiError } from '../io/api.ts';
import { wireAdvanced } from './capture-advanced.ts';
import { OptionError, readCaptureOptions } from './capture-options.ts';
import type { CaptureOptions } from './capture-options.ts';
import { byId, clearProblem, isAbort, radioValue, setBusy, setRadio, showProblem } from '../dom.ts';
import type { Editor } from '../editor.ts';
import { capturedSource, defaultDevice } from '../model/capture-request.ts';
import type { RedactionBox } from '../model/redaction.ts';
import type { Source } from '../render/sources.ts';
import { base64ToBlob, bitmapSource } from '../render/sources.ts';

export interface ScreenshotResponse {
  screenshot: string;
  url: string;
  cached: boolean;
  deviceType?: 'desktop' | 'mobile';
  colorScheme?: 'light' | 'dark';
  /** With fullPage only: the page was taller than a capture may be, and was cut at capturedHeight (CSS px). */
  truncated?: boolean;
  capturedHeight?: number;
  /** With redact: the boxes over what was found, in image pixels. */
  redactions?: RedactionBox[];
}

export interface CaptureRequest extends CaptureOptions {
  url: string;
  deviceType: 'desktop' | 'mobile';
  colorScheme: 'light' | 'dark';
  forceRefresh: boolean;
}

/**
 * The request that made each captured source, in this tab's memory only (it may carry cookies):
 * redaction captures the same page again the same way.
 */
const requests = new WeakMap<Source, CaptureRequest>();

export function captureRequestOf(source: Source): CaptureRequest | undefined {
  return requests.get(source);
}

export function rememberCaptureRequest(source: Source, request: CaptureRequest): void {
  requests.set(source, request);
}

/** A URL as typed: `example.com/page` means https. */
function normaliseUrl(value: string): string {
  const trimmed = value.trim();
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

/** What the browser itself parses as an http(s) address; the API checks the rest (public host, no credentials). */
function isWebAddress(url: string): boolean {
  // Chromium's parser takes "https://not a url", spaces and all.
  if (/\s/.test(url)) return false;
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** The server's capture time-out, which the page embeds; 15 s, the API's default, if it does not. */
function captureTimeoutSeconds(): number {
  const ms = Number(document.querySelector<HTMLMetaElement>('meta[name="easel-capture-timeout-ms"]')?.content);
  return Number.isFinite(ms) && ms > 0 ? Math.ceil(ms / 1000) : 15;
}

/** The text itself when it does not parse: the API will say why. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export class CaptureForm {
  private readonly form = byId('panel-capture', HTMLFormElement);
  private readonly url = byId('capture-url', HTMLInputElement);
  private readonly submit = byId('capture-submit', HTMLButtonElement);
  private readonly cancel = byId('capture-cancel', HTMLButtonElement);
  private readonly progress = byId('capture-progress', HTMLProgressElement);
  private readonly status = byId('capture-status', HTMLParagraphElement);
  private readonly timer = byId('capture-timer', HTMLParagraphElement);
  private capturing: AbortController | undefined;
  private coolingUntil = 0;
  private readonly editor: Editor;
  private readonly problem: HTMLElement;

  constructor(editor: Editor, problem: HTMLElement) {
    this.editor = editor;
    this.problem = problem;
    // Before the first paint of the form's state; not kept, like the rest of the form.
    setRadio(this.form, 'device', defaultDevice(window.innerWidth));
    wireAdvanced();
    this.cancel.addEventListener('click', () => this.capturing?.abort());
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (this.capturing || Date.now() < this.coolingUntil) return;
      clearProblem(problem);
      const request = this.read();
      if (request) void this.capture(request);
    });
  }

  /** The request as the form states it, or undefined with the field at fault focused and said why. */
  private read(): CaptureRequest | undefined {
    const refuse = (message: string) => {
      this.refused(new Error(message));
      this.url.focus();
      return undefined;
    };
    if (this.url.value.trim() === '') return refuse('Enter the address of the page to capture, such as https://example.com.');
    const url = normaliseUrl(this.url.value);
    if (!isWebAddress(url)) return refuse(`“${this.url.value.trim()}” is not a web address. Enter one such as https://example.com, without spaces.`);
    let options: CaptureOptions;
    try {
      options = readCaptureOptions();
    } catch (error) {
      if (!(error instanceof OptionError)) throw error;
      this.refused(error);
      const disclosure = error.control.closest('details');
      if (disclosure) disclosure.open = true;
      error.control.focus();
      return undefined;
    }
    return {
      url,
      deviceType: radioValue(this.form, 'device') === 'mobile' ? 'mobile' : 'desktop',
      colorScheme: radioValue(this.form, 'scheme') === 'dark' ? 'dark' : 'light',
      forceRefresh: byId('capture-refresh', HTMLInputElement).checked,
      ...options,
    };
  }

  /** Refused before sending: the status line stops speaking of the last capture, the problem box says why. */
  private refused(error: Error): void {
    this.status.textContent = 'Not captured: see what to change below.';
    showProblem(this.problem, error);
  }

  private async capture(request: CaptureRequest): Promise<void> {
    const controller = new AbortController();
    this.capturing = controller;
    const label = hostOf(request.url);
    const ticking = this.showProgress(label);
    try {
      const response = await this.editor.api.call('/api/screenshot', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(request),
        signal: controller.signal,
      });
      await this.open(request, response);
    } catch (error) {
      if (isAbort(error)) {
        this.status.textContent = 'Capture cancelled.';
        return;
      }
      this.status.textContent = 'The capture failed.';
      showProblem(this.problem, error);
      if (error instanceof ApiError && error.status === 429) this.coolDown(error.retryAfter ?? 60);
    } finally {
      clearInterval(ticking);
      this.endProgress();
    }
  }

  /** Returns the elapsed-time timer to clear. */
  private showProgress(label: string): number {
    const started = performance.now();
    const limit = captureTimeoutSeconds();
    setBusy(this.submit, true);
    this.cancel.hidden = false;
    this.progress.hidden = false;
    this.status.textContent = `Capturing ${label}…`;
    this.timer.textContent = `A slow page can take up to ${limit} s.`;
    this.editor.busy(`Capturing ${label}…`);
    return window.setInterval(() => {
      this.timer.textContent = `${Math.floor((performance.now() - started) / 1000)} s elapsed; a slow page can take up to ${limit} s.`;
    }, 1000);
  }

  private endProgress(): void {
    this.capturing = undefined;
    if (Date.now() >= this.coolingUntil) {
      setBusy(this.submit, false);
      this.timer.textContent = '';
    }
    // Hiding the focused Cancel button would drop the keyboard focus to the page.
    if (document.activeElement === this.cancel) this.submit.focus();
    this.cancel.hidden = true;
    this.progress.hidden = true;
    this.editor.busy(undefined);
  }

  private async open(request: CaptureRequest, response: Response): Promise<void> {
    const { deviceType, colorScheme } = request;
    const remaining = response.headers.get('X-RateLimit-Remaining');
    const body = (await response.json()) as ScreenshotResponse;
    const source = await bitmapSource(base64ToBlob(body.screenshot, 'image/png'), capturedSource(request, body.url));
    rememberCaptureRequest(source, request);
    this.editor.setSource(source);
    // The host, not the whole address, which can be any length: the status line has a fixed height.
    const cut = body.truncated ? ` Cut at ${(body.capturedHeight ?? source.height).toLocaleString('en')} px, the limit.` : '';
    const left = remaining === null ? '' : ` ${remaining} captures left this minute.`;
    this.status.textContent = `Captured ${hostOf(body.url)} (${deviceType}, ${colorScheme})${body.cached ? ' from a recent copy' : ''}.${cut}${left}`;
  }

  /** After a 429, until Retry-After has passed. */
  private coolDown(seconds: number): void {
    this.coolingUntil = Date.now() + seconds * 1000;
    setBusy(this.submit, true);
    const tick = () => {
      const left = Math.ceil((this.coolingUntil - Date.now()) / 1000);
      if (left > 0) {
        // Short enough for one line in the narrowest panel: the problem box says why.
        this.timer.textContent = `You can capture again in ${left} s.`;
        this.timer.dataset.seconds = String(left);
        setTimeout(tick, 250);
        return;
      }
      delete this.timer.dataset.seconds;
      this.timer.textContent = '';
      setBusy(this.submit, false);
      this.status.textContent = 'You can capture again.';
    };
    tick();
  }
}
