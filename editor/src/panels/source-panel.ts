/** The Source panel: a tab per kind of source, plus image drop and paste anywhere on the page. */
import { CaptureForm } from './capture-form.ts';
import { byId, clearProblem, isBusy, radioValue, setBusy, showProblem } from '../dom.ts';
import type { Editor } from '../editor.ts';
import { bitmapSource } from '../render/sources.ts';
import { makeCard, tweetSource } from '../render/tweet-card.ts';
import type { CardTheme } from '../render/tweet-card.ts';
import { tweetIdFrom, tweetView } from '../model/tweet.ts';
import type { TweetView } from '../model/tweet.ts';

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

/** The Tweet tab: loads a tweet and redraws its card when the theme changes. */
function setupTweet(editor: Editor, problem: HTMLElement): void {
  const tweetForm = byId('panel-tweet', HTMLFormElement);
  const tweetRef = byId('tweet-ref', HTMLInputElement);
  const tweetSubmit = byId('tweet-submit', HTMLButtonElement);
  const tweetStatus = byId('tweet-status', HTMLParagraphElement);
  const proxy = (url: string) => editor.api.url(`/api/image-proxy?url=${encodeURIComponent(url)}`);
  const theme = (): CardTheme => (radioValue(tweetForm, 'card-theme') === 'dark' ? 'dark' : 'light');
  // So switching the card theme redraws without fetching again.
  let loaded: { view: TweetView; avatar?: HTMLImageElement; photos: (HTMLImageElement | undefined)[] } | undefined;

  tweetForm.addEventListener('change', (event) => {
    const origin = editor.source?.origin;
    if ((event.target as HTMLInputElement).name !== 'card-theme' || origin?.kind !== 'tweet') return;
    // The same card recoloured: its annotations and undo steps stay.
    const kept = () => ({ edits: editor.edits, history: editor.history.state() });
    if (loaded?.view === origin.view) {
      editor.setSource(makeCard(loaded.view, theme(), loaded.avatar, loaded.photos), kept());
      return;
    }
    // A card reopened from the Recent list: its images are fetched again, once.
    void tweetSource(origin.view, theme(), proxy).then(({ source, avatar, photos }) => {
      loaded = { view: origin.view, avatar, photos };
      if (editor.source?.origin === origin) editor.setSource(source, kept());
    });
  });
  tweetForm.addEventListener('submit', (event) => {
    event.preventDefault();
    if (isBusy(tweetSubmit)) return;
    clearProblem(problem);
    const id = tweetIdFrom(tweetRef.value);
    if (id === undefined) {
      // The status must not keep speaking of the tweet before, as if this one had been loaded.
      tweetStatus.textContent = 'Not loaded: see what to change below.';
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
}

/** The Image tab's file picker; returns how a file (chosen, dropped or pasted) becomes the source. */
function setupImageFile(editor: Editor, problem: HTMLElement, selectTab: (id: string) => void): (file: File, how: string) => Promise<void> {
  const fileInput = byId('image-file', HTMLInputElement);
  const imageStatus = byId('image-status', HTMLParagraphElement);

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
  return useFile;
}

/** An image dropped or pasted anywhere on the page becomes the source, unless the background took it. */
function setupDropAndPaste(useFile: (file: File, how: string) => Promise<void>): void {
  const dropHint = byId('stage-drop', HTMLDivElement);
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

/** Wires the source tabs and page-wide drop and paste. */
export function setupSourcePanel(editor: Editor): void {
  const problem = byId('source-error', HTMLDivElement);
  const selectTab = setupTabs(() => undefined);
  new CaptureForm(editor, problem);
  setupTweet(editor, problem);
  setupDropAndPaste(setupImageFile(editor, problem, selectTab));
}
