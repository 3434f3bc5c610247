/** Redaction's DevTools calls: hold the page still, snapshot what it draws, and ask nodes for what only the page knows. */
import { CDPSessionEvent } from 'puppeteer-core';
import type { CDPSession, Page, Protocol } from 'puppeteer-core';
import { ignore } from '#shared/services/capture/deadline.ts';
import type { Measured } from '#shared/services/capture/redaction/cover.ts';
import type { SnapshotPart } from '#shared/services/capture/redaction/drawn-text.ts';
import { imageStates, pauseAnimations, rangeRects } from '#shared/services/capture/redaction/in-page.ts';
import { SNAPSHOT_STYLES } from '#shared/services/capture/redaction/snapshot-tree.ts';
import type { Rect } from '#shared/services/capture/redaction/snapshot-tree.ts';

/** The isolated world redaction runs its code in, out of the page scripts' reach. */
const WORLD = 'easel-redaction';

const snapshotOn = (session: CDPSession): Promise<Protocol.DOMSnapshot.CaptureSnapshotResponse> =>
  session.send('DOMSnapshot.captureSnapshot', { computedStyles: [...SNAPSHOT_STYLES] });

/** How long the capture waits at most for paused animations to take hold, where frames are throttled. */
const PAUSE_MS = 250;

/** Pauses each frame's animations and waits for the pause to hold: a playback rate of 0, or not waiting, left the compositor a step on. */
async function pauseIn(session: CDPSession): Promise<void> {
  const { frameTree } = await session.send('Page.getFrameTree');
  const frames: string[] = [];
  const walk = (tree: Protocol.Page.FrameTree): void => {
    frames.push(tree.frame.id);
    for (const child of tree.childFrames ?? []) walk(child);
  };
  walk(frameTree);
  await Promise.all(
    frames.map(async (frameId) => {
      const world = await session.send('Page.createIsolatedWorld', { frameId, worldName: WORLD }).catch(() => undefined);
      if (!world) return;
      await session
        .send('Runtime.callFunctionOn', { functionDeclaration: pauseAnimations.toString(), executionContextId: world.executionContextId, awaitPromise: true })
        .catch(ignore);
    }),
  );
}

/** A frame that runs in another process (site isolation): its own session, and the session of the frame it is in. */
interface FrameTarget {
  frameId: string;
  parent: CDPSession;
}

/** Redaction's reads of one page: a session of its own, and one per frame of another process (site isolation), attached as they appear. */
export class PageReader {
  private readonly frames = new Map<CDPSession, FrameTarget>();
  /** The session each document of the last snapshot is reached through. */
  private sessions: CDPSession[] = [];
  private readonly page: Page;
  readonly session: CDPSession;

  private constructor(page: Page, session: CDPSession) {
    this.page = page;
    this.session = session;
  }

  static async open(page: Page): Promise<PageReader> {
    const reader = new PageReader(page, await page.createCDPSession());
    try {
      await reader.attach(reader.session);
    } catch (error) {
      await reader.close();
      throw error;
    }
    return reader;
  }

  /** Attaches to the frames of other processes in `parent`'s frame, now and as they appear, and to theirs. */
  private async attach(parent: CDPSession): Promise<void> {
    const children: Promise<void>[] = [];
    parent.on('Target.attachedToTarget', (event: Protocol.Target.AttachedToTargetEvent) => {
      const session = parent.connection()?.session(event.sessionId);
      if (!session || event.targetInfo.type !== 'iframe') return;
      this.frames.set(session, { frameId: event.targetInfo.targetId, parent });
      children.push(this.attach(session).catch(ignore));
    });
    parent.on(CDPSessionEvent.SessionDetached, (session: CDPSession) => {
      this.frames.delete(session);
    });
    await parent.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true, filter: [{ type: 'iframe' }] });
    await Promise.all(children);
  }

  /** What the page lays out and paints: its snapshot (every in-process frame and shadow root), then each other process's. */
  async snapshot(): Promise<SnapshotPart[]> {
    const frames = [...this.frames];
    const sessions = [this.session, ...frames.map(([session]) => session)];
    const [snapshots, owners] = await Promise.all([
      Promise.all(sessions.map(snapshotOn)),
      Promise.all(
        frames.map(([, frame]) =>
          frame.parent.send('DOM.getFrameOwner', { frameId: frame.frameId }).then(
            ({ backendNodeId }) => backendNodeId,
            () => undefined,
          ),
        ),
      ),
    ]);
    this.sessions = snapshots.flatMap((snapshot, i) => snapshot.documents.map(() => sessions[i]!));
    return snapshots.map((snapshot, i) => {
      const parent = frames[i - 1]?.[1].parent;
      const backendNodeId = owners[i - 1];
      // A frame whose owner is gone is not drawn: it gets no place.
      return parent && backendNodeId !== undefined ? { snapshot, owner: { part: sessions.indexOf(parent), backendNodeId } } : { snapshot, orphan: i > 0 };
    });
  }

  /** Stops scripts and pauses animations in every frame and process, so nothing changes between the read and the picture. */
  async holdStill(): Promise<void> {
    await this.page.setJavaScriptEnabled(false);
    const sessions = [this.session, ...this.frames.keys()];
    let timer: NodeJS.Timeout | undefined;
    const throttled = new Promise<void>((resolve) => (timer = setTimeout(resolve, PAUSE_MS)));
    await Promise.race([Promise.all(sessions.map(pauseIn)), throttled]).finally(() => clearTimeout(timer));
  }

  /** The part of the page the viewport shows, in document CSS px (a page zoomed out to fit a phone shows more than its width). */
  async viewportArea(): Promise<Rect> {
    const { cssVisualViewport: view } = await this.session.send('Page.getLayoutMetrics');
    return { x: view.pageX, y: view.pageY, width: view.clientWidth, height: view.clientHeight };
  }

  sessionOf(document: number): CDPSession {
    return this.sessions[document] ?? this.session;
  }

  async close(): Promise<void> {
    await Promise.all([...this.frames.keys(), this.session].map((session) => session.detach().catch(ignore)));
  }
}

export interface NodeRef {
  document: number;
  backendNodeId: number;
}

/** Runs `fn` once per frame in an isolated world (a page that replaced Range cannot lie to it) on the nodes (null: gone), then `extra`. */
async function onNodes<T>(
  reader: PageReader,
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
      const session = reader.sessionOf(document);
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
export function measureRanges(reader: PageReader, frames: readonly string[], requests: readonly RangeRequest[]): Promise<(Measured | null)[]> {
  if (requests.length === 0) return Promise.resolve([]);
  return onNodes(reader, frames, requests, rangeRects, (indices) =>
    indices.map((index) => {
      const request = requests[index]!;
      return [request.start, request.end, request.boxStart, request.boxEnd];
    }),
  );
}

/** Whether each img is drawn, broken (its alt text shows) or still loading. */
export function imagesDrawn(reader: PageReader, frames: readonly string[], images: readonly NodeRef[]): Promise<('drawn' | 'broken' | 'loading' | null)[]> {
  if (images.length === 0) return Promise.resolve([]);
  return onNodes(reader, frames, images, imageStates);
}
