/**
 * The export off the page's main thread: the composition is drawn here on OffscreenCanvases and
 * encoded with the WebAssembly codecs. A second entry point of editor/build.ts, started by encode.ts.
 */
import { encodeImage, warmCodecs } from './codecs.ts';
import { sceneComposition } from './export-scene.ts';
import type { ExportReply, ExportRequest, ExportTimings } from './export-scene.ts';
import { rasterize } from '../render/render.ts';

// The DOM library's types, narrowed to what a dedicated worker's global scope offers here.
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ExportRequest>) => void) | null;
  postMessage(message: ExportReply): void;
};

/** Whether the window has no transparent pixel: a frame fills behind the source; else the source's own alpha. */
function opaqueWindow(scene: ExportRequest['scene']): boolean {
  if (scene.settings.frame !== 'none') return true;
  const { bitmap } = scene.source;
  const ctx = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(bitmap, 0, 0);
  const { data } = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false;
  return true;
}

/** Draws the scene in bands and encodes it. */
async function exportFile({ scene, format, quality }: ExportRequest): Promise<{ blob: Blob; timings: ExportTimings }> {
  const started = performance.now();
  const pixels = rasterize(sceneComposition(scene), scene.scale, { opaqueWindow: opaqueWindow(scene) });
  const rendered = performance.now();
  const blob = await encodeImage(pixels, format, quality);
  return { blob, timings: { render: rendered - started, encode: performance.now() - rendered } };
}

scope.onmessage = (event) => {
  const { id } = event.data;
  exportFile(event.data).then(
    (made) => scope.postMessage({ id, ...made }),
    (error: unknown) => scope.postMessage({ id, error: error instanceof Error ? error.message : String(error) }),
  );
};

// Started when the page has a source: by its first export, the codecs are here.
warmCodecs().then(
  () => scope.postMessage({ ready: true }),
  () => scope.postMessage({ ready: false }),
);
