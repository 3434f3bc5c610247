/** What a page starts beyond its own interception (workers, windows) is held at creation and refused every request before it runs. */
import type { Browser, CDPSession, Page, Protocol } from 'puppeteer-core';
import { log, serializeError } from '#shared/log.ts';

const ignore = () => undefined;

// Pages too: a page opened by another (window.open, target=_blank, even with noopener) has an opener.
const HELD: Protocol.Target.TargetFilter = [{ type: 'service_worker' }, { type: 'shared_worker' }, { type: 'page' }];

/** Holds each new worker and page: ours released at once, strays failing every request (popups closed); throws if refused: none goes uncontained. */
export async function containStrays(browser: Browser): Promise<void> {
  const session = await browser.target().createCDPSession();
  const connection = session.connection();
  if (!connection) throw new Error('the browser session has no connection');
  session.on('Target.attachedToTarget', (event: Protocol.Target.AttachedToTargetEvent) => {
    const target = connection.session(event.sessionId);
    if (target) void contain(session, target, event.targetInfo);
  });
  await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true, filter: HELD });
}

async function contain(browserSession: CDPSession, target: CDPSession, info: Protocol.Target.TargetInfo): Promise<void> {
  const stray = info.type !== 'page' || info.openerId !== undefined || info.openerFrameId !== undefined;
  if (!stray) {
    await target.send('Runtime.runIfWaitingForDebugger').catch(ignore);
    return void browserSession.send('Target.detachFromTarget', { sessionId: target.id() }).catch(ignore);
  }
  try {
    // Fetch on the target's own session sees what page interception never does: navigation, scripts, fetches (not WebSockets: docs/security.md).
    target.on(
      'Fetch.requestPaused',
      (event: Protocol.Fetch.RequestPausedEvent) =>
        void target.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }).catch(ignore),
    );
    await target.send('Fetch.enable', { patterns: [{ urlPattern: '*' }] });
    log.info('capture target contained', { type: info.type, popup: info.type === 'page' });
  } catch (error) {
    // Gone already, or refusing interception: closing it is all that is left.
    log.warn('capture target not intercepted', { type: info.type, error: serializeError(error) });
    return void browserSession.send('Target.closeTarget', { targetId: info.targetId }).catch(ignore);
  }
  // Resumed before closing: a window closed while held can leave its opener's renderer hung.
  await target.send('Runtime.runIfWaitingForDebugger').catch(ignore);
  if (info.type === 'page') await browserSession.send('Target.closeTarget', { targetId: info.targetId }).catch(ignore);
}

/** Behind containStrays: no service worker registers, SharedWorker is gone (pages fall back to dedicated ones) and window.open answers null. */
export async function blockWorkers(page: Page): Promise<void> {
  await page.evaluateOnNewDocument(NO_STRAYS);
}

// A string, not a function: it runs in the page, and the bundle must not rewrite it.
const NO_STRAYS = `(() => {
  const refuse = () => Promise.reject(new DOMException('Service workers are off in captures.', 'SecurityError'));
  if (typeof ServiceWorkerContainer === 'function') Object.defineProperty(ServiceWorkerContainer.prototype, 'register', { value: refuse, configurable: true });
  delete globalThis.SharedWorker;
  globalThis.open = () => null;
})()`;
