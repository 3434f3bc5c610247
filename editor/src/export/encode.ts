/**
 * Makes the export's file in a module worker (export-worker.ts), which draws and encodes it, so
 * the page's main thread stays free and the codecs are not part of the page's script.
 */
import type { Composition } from '../render/composition.ts';
import { sceneOf } from './export-scene.ts';
import type { ExportReply, ExportRequest, ExportTimings } from './export-scene.ts';
import type { FormatId, QualityId } from '../model/presets.ts';

/** export-worker.ts's hashed file name, beside the page's script; editor/build.ts defines it. */
declare const EXPORT_WORKER_FILE: string;

/** The Trusted Types policy for that one URL; the page's CSP names it (shared/editor/assets.ts EXPORT_WORKER_POLICY). */
export const WORKER_POLICY = 'easel-export-worker';

export interface Encoded {
  blob: Blob;
  /** Where it was made: the export reports it, so tests can tell. */
  encoder: 'worker';
  timings: ExportTimings;
}

interface TrustedTypesLike {
  createPolicy(name: string, rules: { createScriptURL(url: string): string }): { createScriptURL(url: string): unknown };
}

type Made = { blob: Blob; timings: ExportTimings };
type Pending = { resolve: (made: Made) => void; reject: (error: Error) => void };

let worker: Worker | null | undefined;
let onReady: (ready: boolean) => void = () => {};
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
  // Safari before 16.4 and Firefox before 105 cannot draw on a canvas in a worker.
  if (typeof Worker === 'undefined' || typeof OffscreenCanvas === 'undefined') return null;
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
    started.onmessage = ({ data }: MessageEvent<ExportReply>) => {
      if ('ready' in data) return onReady(data.ready);
      const waiting = pending.get(data.id);
      pending.delete(data.id);
      if ('blob' in data) waiting?.resolve(data);
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

function inWorker(target: Worker, request: Omit<ExportRequest, 'id'>): Promise<Made> {
  const id = nextId++;
  return new Promise<Made>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    // Bitmaps are cloned, not transferred: the editor keeps drawing its preview from them.
    target.postMessage({ id, ...request } satisfies ExportRequest);
  });
}

/**
 * Starts the worker, which fetches and compiles its codecs; `ready` is told whether it has them,
 * after which an export needs nothing from the server.
 */
export function prepareExport(ready: (ready: boolean) => void): void {
  onReady = ready;
  exportWorker();
}

/** The composition at `scale` as a `format` file at `quality`. */
export async function encodeComposition(composition: Composition, scale: number, format: FormatId, quality: QualityId): Promise<Encoded> {
  const target = exportWorker();
  if (!target)
    throw new Error(
      'This browser cannot draw in a worker, which the export needs: use a recent Chrome, Edge, Firefox (105 or later) or Safari (16.4 or later).',
    );
  const scene = await sceneOf(composition, scale);
  return { ...(await inWorker(target, { scene, format, quality })), encoder: 'worker' };
}
