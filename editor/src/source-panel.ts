/** The Source panel: a tab per kind of source, plus image drop and paste anywhere on the page. */
import { ApiError } from './api.ts';
import { OptionError, readCaptureOptions } from './capture-options.ts';
import type { CaptureOptions } from './capture-options.ts';
import { byId, clearProblem, isAbort, isBusy, radioValue, setBusy, showProblem } from './dom.ts';
import type { Editor } from './editor.ts';
import { base64ToBlob, bitmapSource } from './sources.ts';
import { makeCard, tweetSource } from './tweet-card.ts';
import type { CardTheme } from './tweet-card.ts';
import { tweetIdFrom, tweetView } from './tweet.ts';
import type { TweetView } from './tweet.ts';

interface ScreenshotResponse {
  screenshot: string;
  url: string;
  cached: boolean;
  deviceType?: 'desktop' | 'mobile';
  colorScheme?: 'light' | 'dark';
  /** With fullPage only: the page was taller than a capture may be, and was cut at capturedHeight (CSS px). */
  truncated?: boolean;
  capturedHeight?: number;
}

/** What browsers decode and /api/export accepts (GIF is drawn as its first frame). */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
const MAX_IMAGE_BYTES = 50 * 1024 * 1024;

/** The ARIA tabs pattern's keyboard behaviour: arrows, Home and End move and select. */
function setupTabs(onSelect: (id: string) => void): (id: string) => void {
  const tabs = [...document.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  const select = (tab: HTMLButtonElement, focus: boolean) => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute('aria-selected', String(selected));
      other.tabIndex = selected ? 0 : -1;
      byId(other.getAttribute('aria-controls') ?? '', HTMLElement).hidden = !selected;
    }
    if (focus) tab.focus();
    onSelect(tab.id);
  };
  tabs.forEach((tab, index) => {
    tab.addEventListener('click', () => select(tab, false));
    tab.addEventListener('keydown', (event) => {
      const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
      if (next === undefined) return;
      event.preventDefault();
      select(tabs[(next + tabs.length) % tabs.length]!, true);
    });
  });
  return (id) => {
    const tab = tabs.find((candidate) => candidate.id === id);
    if (tab) select(tab, false);
  };
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

/** Wires the source tabs and page-wide drop and paste. */
export function setupSourcePanel(editor: Editor): void {
  const problem = byId('source-error', HTMLDivElement);
  const selectTab = setupTabs(() => undefined);

  const captureForm = byId('panel-capture', HTMLFormElement);
  const captureUrl = byId('capture-url', HTMLInputElement);
  const captureSubmit = byId('capture-submit', HTMLButtonElement);
  const captureCancel = byId('capture-cancel', HTMLButtonElement);
  const captureProgress = byId('capture-progress', HTMLProgressElement);
  const captureStatus = byId('capture-status', HTMLParagraphElement);
  const captureTimer = byId('capture-timer', HTMLParagraphElement);
  let capturing: AbortController | undefined;
  let coolingUntil = 0;

  /** After a 429, until Retry-After has passed. */
  const coolDown = (seconds: number) => {
    coolingUntil = Date.now() + seconds * 1000;
    setBusy(captureSubmit, true);
    const tick = () => {
      const left = Math.ceil((coolingUntil - Date.now()) / 1000);
      if (left > 0) {
        // Short enough for one line in the narrowest panel: the problem box says why.
        captureTimer.textContent = `You can capture again in ${left} s.`;
        captureTimer.dataset.seconds = String(left);
        setTimeout(tick, 250);
        return;
      }
      delete captureTimer.dataset.seconds;
      captureTimer.textContent = '';
      setBusy(captureSubmit, false);
      captureStatus.textContent = 'You can capture again.';
    };
    tick();
  };

  captureCancel.addEventListener('click', () => capturing?.abort());
  captureForm.addEventListener('submit', (event) => {
    event.preventDefault();
    if (capturing || Date.now() < coolingUntil) return;
    clearProblem(problem);
    if (captureUrl.value.trim() === '') {
      showProblem(problem, new Error('Enter the address of the page to capture, such as https://example.com.'));
      captureUrl.focus();
      return;
    }
    const url = normaliseUrl(captureUrl.value);
    if (!isWebAddress(url)) {
      showProblem(problem, new Error(`“${captureUrl.value.trim()}” is not a web address. Enter one such as https://example.com, without spaces.`));
      captureUrl.focus();
      return;
    }
    const deviceType = radioValue(captureForm, 'device') === 'mobile' ? 'mobile' : 'desktop';
    const colorScheme = radioValue(captureForm, 'scheme') === 'dark' ? 'dark' : 'light';
    const forceRefresh = byId('capture-refresh', HTMLInputElement).checked;
    let options: CaptureOptions;
    try {
      options = readCaptureOptions();
    } catch (error) {
      if (!(error instanceof OptionError)) throw error;
      showProblem(problem, error);
      const disclosure = error.control.closest('details');
      if (disclosure) disclosure.open = true;
      error.control.focus();
      return;
    }
    const controller = new AbortController();
    capturing = controller;
    const started = performance.now();
    const label = hostOf(url);
    const limit = captureTimeoutSeconds();
    const timer = setInterval(() => {
      captureTimer.textContent = `${Math.floor((performance.now() - started) / 1000)} s elapsed; a slow page can take up to ${limit} s.`;
    }, 1000);
    setBusy(captureSubmit, true);
    captureCancel.hidden = false;
    captureProgress.hidden = false;
    captureStatus.textContent = `Capturing ${label}…`;
    captureTimer.textContent = `A slow page can take up to ${limit} s.`;
    editor.busy(`Capturing ${label}…`);
    void (async () => {
      try {
        const response = await editor.api.call('/api/screenshot', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ url, deviceType, colorScheme, forceRefresh, ...options }),
          signal: controller.signal,
        });
        const remaining = response.headers.get('X-RateLimit-Remaining');
        const body = (await response.json()) as ScreenshotResponse;
        const source = await bitmapSource(base64ToBlob(body.screenshot, 'image/png'), {
          kind: 'capture',
          density: deviceType === 'mobile' ? 2 : 1,
          title: body.url.replace(/^https?:\/\//, ''),
          description: `capture of ${body.url} (${deviceType}, ${colorScheme})`,
          address: body.url,
        });
        editor.setSource(source);
        // The host, not the whole address, which can be any length: the status line has a fixed height.
        const cut = body.truncated ? ` Cut at ${(body.capturedHeight ?? source.height).toLocaleString('en')} px, the limit.` : '';
        captureStatus.textContent = `Captured ${hostOf(body.url)} (${deviceType}, ${colorScheme})${body.cached ? ' from a recent copy' : ''}.${cut}${remaining === null ? '' : ` ${remaining} captures left this minute.`}`;
      } catch (error) {
        if (isAbort(error)) {
          captureStatus.textContent = 'Capture cancelled.';
          return;
        }
        captureStatus.textContent = 'The capture failed.';
        showProblem(problem, error);
        if (error instanceof ApiError && error.status === 429) coolDown(error.retryAfter ?? 60);
      } finally {
        clearInterval(timer);
        capturing = undefined;
        if (Date.now() >= coolingUntil) {
          setBusy(captureSubmit, false);
          captureTimer.textContent = '';
        }
        // Hiding the focused Cancel button would drop the keyboard focus to the page.
        if (document.activeElement === captureCancel) captureSubmit.focus();
        captureCancel.hidden = true;
        captureProgress.hidden = true;
        editor.busy(undefined);
      }
    })();
  });

  const tweetForm = byId('panel-tweet', HTMLFormElement);
  const tweetRef = byId('tweet-ref', HTMLInputElement);
  const tweetSubmit = byId('tweet-submit', HTMLButtonElement);
  const tweetStatus = byId('tweet-status', HTMLParagraphElement);
  const proxy = (url: string) => editor.api.url(`/api/image-proxy?url=${encodeURIComponent(url)}`);
  const theme = (): CardTheme => (radioValue(tweetForm, 'card-theme') === 'dark' ? 'dark' : 'light');
  // So switching the card theme redraws without fetching again.
  let loaded: { view: TweetView; avatar?: HTMLImageElement; photos: (HTMLImageElement | undefined)[] } | undefined;

  tweetForm.addEventListener('change', (event) => {
    if ((event.target as HTMLInputElement).name !== 'card-theme' || !loaded || editor.source?.kind !== 'tweet') return;
    editor.setSource(makeCard(loaded.view, theme(), loaded.avatar, loaded.photos));
  });
  tweetForm.addEventListener('submit', (event) => {
    event.preventDefault();
    if (isBusy(tweetSubmit)) return;
    clearProblem(problem);
    const id = tweetIdFrom(tweetRef.value);
    if (id === undefined) {
      showProblem(problem, new Error('Enter a tweet’s address (https://x.com/user/status/123…) or its numeric id.'));
      tweetRef.focus();
      return;
    }
    setBusy(tweetSubmit, true);
    tweetStatus.textContent = 'Loading the tweet…';
    editor.busy('Loading the tweet…');
    void (async () => {
      try {
        const { data } = await editor.api.json<{ data: unknown }>(`/api/tweet/${id}`);
        const view = tweetView(data);
        const { source, avatar, photos, failed } = await tweetSource(view, theme(), proxy);
        loaded = { view, avatar, photos };
        editor.setSource(source);
        tweetStatus.textContent = `Loaded the tweet by @${view.handle}.${failed > 0 ? ` ${failed} of its images could not be loaded and show as blanks.` : ''}`;
      } catch (error) {
        tweetStatus.textContent = 'The tweet could not be loaded.';
        showProblem(problem, error);
      } finally {
        setBusy(tweetSubmit, false);
        editor.busy(undefined);
      }
    })();
  });

  const fileInput = byId('image-file', HTMLInputElement);
  const imageStatus = byId('image-status', HTMLParagraphElement);
  const dropHint = byId('stage-drop', HTMLDivElement);

  const useFile = async (file: File, how: string) => {
    clearProblem(problem);
    selectTab('tab-image');
    const name = file.name || 'pasted image';
    // The status must not keep naming the file before, as if this one had been opened.
    const refuse = (error: unknown) => {
      imageStatus.textContent = `Could not use ${name}.`;
      showProblem(problem, error);
    };
    if (!IMAGE_TYPES.includes(file.type)) {
      refuse(new Error(`${file.name || 'This file'} is not a PNG, JPEG, WebP or GIF image.`));
      return;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      refuse(new Error(`${name} is larger than 50 MB; use a smaller image.`));
      return;
    }
    try {
      // No title: a file has no address for the window frame to show.
      const source = await bitmapSource(file, { kind: 'image', title: '', description: `image ${name}` });
      editor.setSource(source);
      imageStatus.textContent = `${how} ${name} (${source.width} × ${source.height} px).`;
    } catch (error) {
      refuse(error);
    }
  };

  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    if (file) void useFile(file, 'Opened');
  });

  const imageFileOf = (data: DataTransfer | null) => [...(data?.files ?? [])].find((file) => file.type.startsWith('image/'));
  const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
  let dragDepth = 0;
  document.addEventListener('dragenter', (event) => {
    if (!carriesFiles(event)) return;
    dragDepth += 1;
    dropHint.hidden = false;
  });
  document.addEventListener('dragleave', () => {
    dragDepth = Math.max(0, dragDepth - 1);
    if (dragDepth === 0) dropHint.hidden = true;
  });
  document.addEventListener('dragover', (event) => {
    if (!carriesFiles(event)) return;
    // Without this the browser would open the file in place of the editor.
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
  });
  document.addEventListener('drop', (event) => {
    dragDepth = 0;
    dropHint.hidden = true;
    const file = imageFileOf(event.dataTransfer);
    // The background's own drop zone takes its drop first.
    if (!file || event.defaultPrevented) return;
    event.preventDefault();
    void useFile(file, 'Dropped');
  });
  document.addEventListener('paste', (event) => {
    const file = imageFileOf(event.clipboardData);
    // Text pasted into a field stays text; only an image becomes the source, unless the background took it.
    if (!file || event.defaultPrevented) return;
    event.preventDefault();
    void useFile(file, 'Pasted');
  });
}
