/**
 * The export's encoder, off the page's main thread: a rendered bitmap in, the file's bytes out.
 * A second entry point of editor/build.ts, started by encode.ts.
 */
import type { EncodeReply, EncodeRequest } from './encode.ts';

// The DOM library's types, narrowed to what a dedicated worker's global scope offers here.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<EncodeRequest>) => void) | null;
  postMessage(message: EncodeReply): void;
};

async function encode({ bitmap, maxBytes }: EncodeRequest): Promise<Blob> {
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  // Takes the bitmap over without copying its pixels.
  canvas.getContext('bitmaprenderer')!.transferFromImageBitmap(bitmap);
  const png = await canvas.convertToBlob({ type: 'image/png' });
  if (maxBytes === undefined || png.size <= maxBytes) return png;
  // WebP at quality 1 keeps alpha in fewer bytes, and Chromium encodes it losslessly.
  return canvas.convertToBlob({ type: 'image/webp', quality: 1 });
}

scope.onmessage = (event) => {
  const { id } = event.data;
  encode(event.data).then(
    (blob) => scope.postMessage({ id, blob }),
    (error: unknown) => scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
};
