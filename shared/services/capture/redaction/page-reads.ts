/**
 * Redaction's calls to the browser over one DevTools session of the page: hold it still, snapshot
 * what it draws, and ask nodes (by their protocol ids) for what only the page knows.
 */
import type { CDPSession, Page, Protocol } from 'puppeteer-core';
import { SNAPSHOT_STYLES } from '#shared/services/capture/redaction/drawn-text.ts';
import { imageStates, rangeRects } from '#shared/services/capture/redaction/in-page.ts';
import type { Rect } from '#shared/services/capture/redaction/snapshot-tree.ts';

/** What the page lays out and paints, every in-process frame and shadow root included. */
export function snapshotOf(session: CDPSession): Promise<Protocol.DOMSnapshot.CaptureSnapshotResponse> {
  return session.send('DOMSnapshot.captureSnapshot', { computedStyles: [...SNAPSHOT_STYLES], includeDOMRects: true });
}

/**
 * Stops the page's scripts and its animations and transitions (CSS, scripted and on the
 * compositor): from here to the picture nothing moves or changes what was read. The page is closed
 * after the capture, so both stay stopped.
 */
export async function holdStill(page: Page, session: CDPSession): Promise<void> {
  await Promise.all([page.setJavaScriptEnabled(false), session.send('Animation.setPlaybackRate', { playbackRate: 0 })]);
}

/** The part of the page the viewport shows, in document CSS px (a page zoomed out to fit a phone shows more than its width). */
export async function viewportArea(session: CDPSession): Promise<Rect> {
  const { cssVisualViewport: view } = await session.send('Page.getLayoutMetrics');
  return { x: view.pageX, y: view.pageY, width: view.clientWidth, height: view.clientHeight };
}

/** A node of a snapshot document, by its protocol id. */
export interface NodeRef {
  document: number;
  backendNodeId: number;
}

const WORLD = 'easel-redaction';

/**
 * Runs `fn` on nodes in a world of their frame that the page's scripts cannot reach (so a page
 * that replaced Range or an image's getters cannot lie to it): one call per frame, with the nodes
 * as arguments (null for one that is gone) and then `extra`. Answers per node, in order.
 */
async function onNodes<T>(
  session: CDPSession,
  frames: readonly string[],
  nodes: readonly NodeRef[],
  fn: (...args: unknown[]) => T[],
  extra?: (indices: number[]) => unknown,
): Promise<(T | null)[]> {
  const out: (T | null)[] = nodes.map(() => null);
  const byDocument = new Map<number, number[]>();
  nodes.forEach((node, index) => {
    byDocument.set(node.document, [...(byDocument.get(node.document) ?? []), index]);
  });
  await Promise.all(
    [...byDocument].map(async ([document, indices]) => {
      const { executionContextId } = await session.send('Page.createIsolatedWorld', { frameId: frames[document]!, worldName: WORLD });
      const handles = await Promise.all(
        indices.map((index) =>
          session.send('DOM.resolveNode', { backendNodeId: nodes[index]!.backendNodeId, executionContextId }).then(
            ({ object }) => ({ objectId: object.objectId! }),
            () => ({ value: null }),
          ),
        ),
      );
      const { result } = await session.send('Runtime.callFunctionOn', {
        functionDeclaration: fn.toString(),
        executionContextId,
        arguments: [...handles, ...(extra ? [{ value: extra(indices) }] : [])],
        returnByValue: true,
      });
      (result.value as (T | null)[]).forEach((value, i) => {
        out[indices[i]!] = value;
      });
    }),
  );
  return out;
}

/** A part of a text node: DOM offsets of the part and of the line box it is in. */
export interface RangeRequest extends NodeRef {
  start: number;
  end: number;
  boxStart: number;
  boxEnd: number;
}

/** Where each part is drawn, and its whole line box, in its frame's px (null where the page cannot say). */
export function measureRanges(
  session: CDPSession,
  frames: readonly string[],
  requests: readonly RangeRequest[],
): Promise<({ part: Rect; box: Rect } | null)[]> {
  if (requests.length === 0) return Promise.resolve([]);
  return onNodes(session, frames, requests, rangeRects, (indices) =>
    indices.map((index) => {
      const request = requests[index]!;
      return [request.start, request.end, request.boxStart, request.boxEnd];
    }),
  );
}

/** Whether each img is drawn, broken (its alt text shows) or still loading. */
export function imagesDrawn(session: CDPSession, frames: readonly string[], images: readonly NodeRef[]): Promise<('drawn' | 'broken' | 'loading' | null)[]> {
  if (images.length === 0) return Promise.resolve([]);
  return onNodes(session, frames, images, imageStates);
}
