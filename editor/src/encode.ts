/**
 * Encodes a rendered export into a file in a module worker (export-worker.ts), so reading back and
 * compressing millions of pixels does not block the page; on the main thread where it cannot.
 */
import { canvasBlob } from './render.ts';

/** export-worker.ts's hashed file name, beside the page's script; editor/build.ts defines it. */
declare const EXPORT_WORKER_FILE: string;

/** The Trusted Types policy for that one URL; the page's CSP names it (shared/editor/assets.ts EXPORT_WORKER_POLICY). */
export const WORKER_POLICY = 'easel-export-worker';

export interface EncodeRequest {
  id: number;
  bitmap: ImageBitmap;
  /** Over this many bytes the PNG is replaced by lossless WebP. */
  maxBytes?: number;
}

export type EncodeReply = { id: number; blob: Blob } | { id: number; error: string };

export interface Encoded {
  blob: Blob;
  /** Where it was encoded: the export reports it, so tests can tell. */
  encoder: 'worker' | 'page';
}

interface TrustedTypesLike {
  createPolicy(name: string, rules: { createScriptURL(url: string): string }): { createScriptURL(url: string): unknown };
}

type Pending = { resolve: (blob: Blob) => void; reject: (error: Error) => void };

let worker: Worker | null | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

function failAll(error: Error): void {
  for (const waiting of pending.values()) waiting.reject(error);
  pending.clear();
}

/** The worker, started on first use; null once it is known not to work here. */
function exportWorker(): Worker | null {
  if (worker !== undefined) return worker;
  worker = null;
  // Safari before 17 and Firefox before 105 have no OffscreenCanvas encoding in workers.
  if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined' || !('convertToBlob' in OffscreenCanvas.prototype)) return null;
  try {
    const url = new URL(EXPORT_WORKER_FILE, import.meta.url).href;
    const trusted = (globalThis as { trustedTypes?: TrustedTypesLike }).trustedTypes;
    const policy = trusted?.createPolicy(WORKER_POLICY, {
      createScriptURL: (value) => {
        if (value !== url) throw new TypeError(`${WORKER_POLICY} vouches only for ${url}`);
        return value;
      },
    });
    const started = new Worker((policy ? policy.createScriptURL(url) : url) as string, { type: 'module', name: 'easel-export' });
    started.onmessage = ({ data }: MessageEvent<EncodeReply>) => {
      const waiting = pending.get(data.id);
      pending.delete(data.id);
      if ('blob' in data) waiting?.resolve(data.blob);
      else waiting?.reject(new Error(data.error));
    };
    // A worker that cannot load (no module workers, blocked) is not tried again.
    started.onerror = (event) => {
      event.preventDefault();
      worker = null;
      started.terminate();
      failAll(new Error(event.message || 'The export worker failed to start'));
    };
    worker = started;
  } catch {
    worker = null;
  }
  return worker;
}

async function encodeInWorker(target: Worker, canvas: HTMLCanvasElement, maxBytes?: number): Promise<Blob> {
  // A snapshot, not a copy: the pixels are read back and encoded on the worker's thread.
  const bitmap = await createImageBitmap(canvas);
  performance.mark('easel-export:snapshot');
  const id = nextId++;
  return new Promise<Blob>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    const request: EncodeRequest = { id, bitmap, ...(maxBytes === undefined ? {} : { maxBytes }) };
    target.postMessage(request, [bitmap]);
  });
}

async function encodeOnPage(canvas: HTMLCanvasElement, maxBytes?: number): Promise<Blob> {
  const png = await canvasBlob(canvas, 'image/png');
  if (maxBytes === undefined || png.size <= maxBytes) return png;
  // WebP at quality 1 keeps alpha in fewer bytes, and Chromium encodes it losslessly.
  return canvasBlob(canvas, 'image/webp', 1);
}

/**
 * A lossless file of `canvas`: PNG, or WebP when the PNG is over `maxBytes`. The canvas is left
 * as it was, so a failed worker falls back to encoding it here.
 */
export async function encodeCanvas(canvas: HTMLCanvasElement, maxBytes?: number): Promise<Encoded> {
  const target = exportWorker();
  if (target) {
    try {
      return { blob: await encodeInWorker(target, canvas, maxBytes), encoder: 'worker' };
    } catch {
      // Encoded again below: the worker's failure is not the user's problem.
    }
  }
  return { blob: await encodeOnPage(canvas, maxBytes), encoder: 'page' };
}
