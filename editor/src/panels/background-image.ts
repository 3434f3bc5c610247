/**
 * The user's background image: chosen, dropped on its own zone or pasted in the Compose panel, and
 * kept in IndexedDB (a blob is too big for local storage or a link) so a reload still has it.
 */
import { byId } from '../dom.ts';
import type { Editor } from '../editor.ts';

/** What browsers decode everywhere; the same list as for a source image. */
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];
const MAX_BYTES = 50 * 1024 * 1024;
/** Longest side kept in memory: a background is seldom seen sharper than a 3× export of a desktop page. */
const MAX_SIDE = 5000;
const DB_NAME = 'easel.editor.background';
const STORE = 'images';
const KEY = 'current';

interface StoredImage {
  blob: Blob;
  name: string;
}

function openDatabase(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB is not available.'));
  });
}

/** One request in its own transaction; resolves when the transaction has committed. */
async function inStore<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDatabase();
  try {
    return await new Promise<T>((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const request = run(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(request.result);
      transaction.onerror = transaction.onabort = () => reject(transaction.error ?? new Error('The browser refused to store the image.'));
    });
  } finally {
    db.close();
  }
}

const saveImage = (image: StoredImage) => inStore('readwrite', (store) => store.put(image, KEY));
const deleteImage = () => inStore('readwrite', (store) => store.delete(KEY));

async function loadImage(): Promise<StoredImage | undefined> {
  const found = (await inStore('readonly', (store) => store.get(KEY))) as Partial<StoredImage> | undefined;
  return found?.blob instanceof Blob ? { blob: found.blob, name: typeof found.name === 'string' ? found.name : 'image' } : undefined;
}

/** @throws Error when the bytes are not an image the browser can decode */
async function decode(blob: Blob): Promise<ImageBitmap> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(blob, { imageOrientation: 'from-image' });
  } catch {
    throw new Error('it is not an image the browser can read: use PNG, JPEG, WebP or GIF');
  }
  const factor = MAX_SIDE / Math.max(bitmap.width, bitmap.height);
  if (factor >= 1) return bitmap;
  const smaller = await createImageBitmap(bitmap, {
    resizeWidth: Math.round(bitmap.width * factor),
    resizeHeight: Math.round(bitmap.height * factor),
    resizeQuality: 'high',
  });
  bitmap.close();
  return smaller;
}

/** As the background will show it, cropped to the thumbnail's shape. */
function drawThumbnail(canvas: HTMLCanvasElement, bitmap: ImageBitmap | undefined): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (!bitmap) return;
  const scale = Math.max(canvas.width / bitmap.width, canvas.height / bitmap.height);
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(bitmap, (canvas.width - bitmap.width * scale) / 2, (canvas.height - bitmap.height * scale) / 2, bitmap.width * scale, bitmap.height * scale);
}

/** Wires the image controls of the Compose panel and brings back the image kept from the last visit. */
export function setupBackgroundImage(editor: Editor): void {
  const group = byId('bg-image', HTMLDivElement);
  const zone = byId('bg-drop', HTMLDivElement);
  const input = byId('bg-file', HTMLInputElement);
  const pasteButton = byId('bg-paste', HTMLButtonElement);
  const removeButton = byId('bg-remove', HTMLButtonElement);
  const thumbnail = byId('bg-thumb', HTMLCanvasElement);
  const status = byId('bg-status', HTMLParagraphElement);
  let name = '';

  const showImage = (bitmap: ImageBitmap | undefined) => {
    drawThumbnail(thumbnail, bitmap);
    zone.classList.toggle('has-image', bitmap !== undefined);
    removeButton.disabled = bitmap === undefined;
  };

  /** Until an image arrives, the image background draws the default gradient; the status says so. */
  const missing = 'No image yet: choose one, drop one on this box, or paste one. Until then the default gradient shows.';

  const use = async (blob: Blob, label: string, how: string) => {
    if (!IMAGE_TYPES.includes(blob.type)) {
      status.textContent = `Could not use ${label}: it is not a PNG, JPEG, WebP or GIF image.`;
      return;
    }
    if (blob.size > MAX_BYTES) {
      status.textContent = `Could not use ${label}: it is larger than 50 MB.`;
      return;
    }
    let bitmap: ImageBitmap;
    try {
      bitmap = await decode(blob);
    } catch (error) {
      status.textContent = `Could not use ${label}: ${error instanceof Error ? error.message : String(error)}.`;
      return;
    }
    name = label;
    editor.setBackgroundImage(bitmap);
    // The switch to an image background is the undo step; the image itself stays.
    if (editor.settings.background !== 'image') editor.update({ background: 'image' });
    showImage(bitmap);
    const used = `${how} ${label} as the background (${bitmap.width} × ${bitmap.height} px).`;
    // Said once stored, so a reload after the message still finds the image.
    try {
      await saveImage({ blob, name: label });
      status.textContent = used;
    } catch {
      status.textContent = `${used} This browser could not keep it for your next visit.`;
    }
  };

  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) void use(file, file.name || 'the image', 'Opened');
    // So choosing the same file again still counts as a choice.
    input.value = '';
  });

  const imageFileOf = (data: DataTransfer | null) => [...(data?.files ?? [])].find((file) => file.type.startsWith('image/'));
  const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
  zone.addEventListener('dragover', (event) => {
    if (!carriesFiles(event)) return;
    event.preventDefault();
    zone.classList.add('is-dragging');
  });
  zone.addEventListener('dragleave', (event) => {
    if (!zone.contains(event.relatedTarget as Node | null)) zone.classList.remove('is-dragging');
  });
  zone.addEventListener('drop', (event) => {
    zone.classList.remove('is-dragging');
    const file = imageFileOf(event.dataTransfer);
    if (!file) return;
    // Claimed here, so the page-wide drop (which sets the source) leaves it alone.
    event.preventDefault();
    void use(file, file.name || 'the dropped image', 'Dropped');
  });
  // A paste while focus is in these controls is for the background, anywhere else for the source.
  group.addEventListener('paste', (event) => {
    const file = imageFileOf(event.clipboardData);
    if (!file) return;
    event.preventDefault();
    void use(file, 'an image from the clipboard', 'Pasted');
  });

  pasteButton.addEventListener('click', () => {
    void (async () => {
      let blob: Blob | undefined;
      try {
        for (const item of await navigator.clipboard.read()) {
          const type = item.types.find((candidate) => IMAGE_TYPES.includes(candidate));
          if (type) {
            blob = await item.getType(type);
            break;
          }
        }
      } catch {
        status.textContent = 'The browser did not allow reading the clipboard: press Ctrl+V (⌘+V on a Mac) here instead.';
        return;
      }
      if (!blob) {
        status.textContent = 'The clipboard holds no image: copy one first.';
        return;
      }
      await use(blob, 'an image from the clipboard', 'Pasted');
    })();
  });

  removeButton.addEventListener('click', () => {
    editor.setBackgroundImage(undefined);
    showImage(undefined);
    pasteButton.focus();
    const removed = name || 'the image';
    name = '';
    deleteImage().then(
      () => {
        status.textContent = `Removed ${removed} from this browser.`;
      },
      () => {
        status.textContent = `Removed ${removed} here, but the browser could not forget it: it may come back after a reload.`;
      },
    );
  });

  editor.onChange(() => {
    if (editor.settings.background === 'image' && !editor.backgroundImage && status.textContent === '') status.textContent = missing;
  });

  showImage(undefined);
  void (async () => {
    const wanted = editor.settings.background === 'image';
    try {
      const stored = await loadImage();
      if (stored) {
        const bitmap = await decode(stored.blob);
        // Something chosen while this was loading wins.
        if (editor.backgroundImage) {
          bitmap.close();
          return;
        }
        name = stored.name;
        editor.setBackgroundImage(bitmap);
        showImage(bitmap);
        status.textContent = `Using ${stored.name} (${bitmap.width} × ${bitmap.height} px), kept in this browser.`;
        return;
      }
    } catch {
      // Storage switched off or an unreadable image: as if there were none.
    }
    if (wanted && !editor.backgroundImage) {
      status.textContent =
        'These settings ask for a background image, which this browser does not have: the default gradient shows until you choose, drop or paste one.';
    }
  })();
}
