/**
 * The capture-quality corpus: pages reproducing the markup and behaviour of common consent
 * managers (written here from their public DOM ids and APIs, none of their code) and of ad slots.
 * Every banner and ad is one colour on a green page, so a capture shows at a glance what is left.
 */
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WALL_CONTENT, WALLS } from './consent-walls.ts';

/** Consent dialogs and ad slots are drawn in these; the page itself is green. */
export const BANNER_COLOUR = { r: 255, g: 0, b: 255 } as const;
export const AD_COLOUR = { r: 255, g: 0, b: 0 } as const;

/** A host the ad list blocks; tests map it to 127.0.0.1 (Chromium's --host-resolver-rules). */
export const AD_HOST = 'pagead2.googlesyndication.com';

/**
 * The name tests serve the corpus under (mapped to 127.0.0.1 too): the lists turn generic hiding
 * off on 127.0.0.1 and localhost (`@@://127.0.0.1$generichide`), as for any developer's own page.
 */
export const SITE_HOST = 'news.example.com';

const BANNER = 'position:fixed;left:0;right:0;bottom:0;height:300px;background:rgb(255,0,255);z-index:99999';
const dismiss = (button: string, target: string, extra = '') =>
  `document.querySelector('${button}').addEventListener('click', () => { ${extra} document.querySelector('${target}').remove(); });`;

/** Each consent manager's page: its container, buttons and (where rules ask the page) its API. */
export const CONSENT_PAGES: Record<string, string> = {
  onetrust: `<div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk" class="otFlat" role="region" style="${BANNER}">
      <p id="onetrust-policy-text">We use cookies.</p>
      <button id="onetrust-pc-btn-handler">Settings</button><button id="onetrust-reject-all-handler">Reject All</button><button id="onetrust-accept-btn-handler">Accept</button>
    </div></div>
    <script>window.OnetrustActiveGroups = ',C0001,C0002,'; ${dismiss('#onetrust-reject-all-handler', '#onetrust-consent-sdk', "window.OnetrustActiveGroups = ',C0001,';")}
    ${dismiss('#onetrust-accept-btn-handler', '#onetrust-consent-sdk')}</script>`,
  cookiebot: `<div id="CybotCookiebotDialog" style="${BANNER}"><p>This website uses cookies.</p>
      <button id="CybotCookiebotDialogBodyLevelButtonLevelOptinDeclineAll">Deny</button><button id="CybotCookiebotDialogBodyLevelButtonLevelOptinAllowAll">Allow all</button></div>
    <script>
      const dialog = () => document.getElementById('CybotCookiebotDialog');
      window.Cookiebot = { hasResponse: false, declined: false, dialog: { visible: true },
        withdraw() { this.hasResponse = true; this.declined = true; }, hide() { this.dialog.visible = false; dialog()?.remove(); } };
      ${dismiss('#CybotCookiebotDialogBodyLevelButtonLevelOptinDeclineAll', '#CybotCookiebotDialog', 'Cookiebot.withdraw(); Cookiebot.dialog.visible = false;')}
    </script>`,
  didomi: `<div id="didomi-host"><div id="didomi-notice" class="didomi-notice-banner" style="${BANNER}"><p>We and our partners use cookies.</p>
      <button id="didomi-notice-disagree-button">Disagree</button><button id="didomi-notice-agree-button">Agree</button></div></div>
    <script>${dismiss('#didomi-notice-disagree-button', '#didomi-notice', "document.getElementById('didomi-host').setAttribute('aria-hidden', 'true');")}</script>`,
  usercentrics: `<div id="usercentrics-root" style="${BANNER}"></div>
    <script>
      const root = document.getElementById('usercentrics-root').attachShadow({ mode: 'open' });
      root.innerHTML = '<div data-testid="uc-container" style="height:300px"><p>Privacy settings</p><button data-testid="uc-deny-all-button">Deny</button><button data-testid="uc-accept-all-button">Accept all</button></div>';
      let accepted = null;
      const close = () => document.getElementById('usercentrics-root')?.remove();
      window.UC_UI = { isInitialized: () => true, closeCMP() { close(); return true; }, denyAllConsents() { accepted = false; close(); return true; },
        acceptAllConsents() { accepted = true; close(); return true; }, areAllConsentsAccepted: () => accepted === true };
      root.querySelector('[data-testid=uc-deny-all-button]').addEventListener('click', () => UC_UI.denyAllConsents());
    </script>`,
  quantcast: `<div id="qc-cmp2-container" class="qc-cmp2-container"><div id="qc-cmp2-main" class="qc-cmp2-main"><div id="qc-cmp2-ui" role="dialog" style="${BANNER}">
      <p>We value your privacy</p><div class="qc-cmp2-summary-buttons"><button mode="secondary">More options</button><button id="disagree-btn" mode="secondary">Disagree</button><button mode="primary">Agree</button></div>
    </div></div></div>
    <script>${dismiss('#disagree-btn', '#qc-cmp2-container')}</script>`,
  // Found but not dismissable: its buttons do nothing and there is no API, so only hiding helps.
  stuck: `<div id="didomi-host"><div id="didomi-notice" class="didomi-notice-banner" style="${BANNER}"><p>Cookies.</p></div></div>`,
  // A dialog that appears after load, as a manager loaded by a tag manager does.
  late: `<script>addEventListener('load', () => setTimeout(() => {
      document.body.insertAdjacentHTML('beforeend', '<div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk" style="${BANNER}"><button id="onetrust-reject-all-handler">Reject All</button></div></div>');
      ${dismiss('#onetrust-reject-all-handler', '#onetrust-consent-sdk')}
    }, 100));</script>`,
};

/** The dimming layer dialogs put under themselves; at 0.5 black it turns the green page to rgb(0,80,0). */
const BACKDROP = 'position:fixed;top:0;left:0;width:100%;height:100%;background:rgba(0,0,0,0.5);z-index:99998';
const DIALOG = 'position:fixed;left:25%;right:25%;top:200px;height:300px;background:rgb(255,0,255);z-index:99999';
/** Scroll locks as pages set them while a dialog is open. */
const LOCKS = {
  class: `document.head.insertAdjacentHTML('beforeend', '<style>.modal-open{overflow:hidden}</style>'); document.body.classList.add('modal-open');`,
  inline: `document.documentElement.style.overflow = 'hidden'; document.body.style.setProperty('overflow', 'hidden', 'important');`,
  fixed: `Object.assign(document.body.style, { position: 'fixed', top: '0px', left: '0', right: '0' });`,
};
/** A consent dialog no rule knows, over its own backdrop; rejecting removes the dialog and leaves the rest. */
const unknownDialog = (lock: string) => `<div class="cookie-backdrop" style="${BACKDROP}"></div>
    <div class="cookie-dialog" role="dialog" aria-modal="true" style="${DIALOG}"><p>We use cookies to personalise content and ads and to analyse our traffic. You can accept or reject all cookies.</p>
      <button class="reject">Reject all</button><button class="accept">Accept all</button></div>
    <script>${lock} ${dismiss('.cookie-dialog .reject', '.cookie-dialog')}</script>`;

/**
 * Pages whose dialog leaves something behind once dismissed, served at /leftovers/<name> and,
 * without the dialog, at /leftovers/<name>?without: the picture a clean capture must equal.
 * Each is taller than a screen, with a fixed header.
 */
export const LEFTOVER_PAGES: Record<string, { dialog: string; content?: string }> = {
  'unknown-class': { dialog: unknownDialog(LOCKS.class) },
  'unknown-inline': { dialog: unknownDialog(LOCKS.inline) },
  'unknown-fixed': { dialog: unknownDialog(LOCKS.fixed) },
  // OneTrust hides its banner on a choice; this one leaves its dark filter and the page's lock.
  'onetrust-filter': {
    dialog: `<div id="onetrust-consent-sdk"><div class="onetrust-pc-dark-filter" style="${BACKDROP}"></div><div id="onetrust-banner-sdk" class="otFlat" role="region" style="${BANNER}">
      <p id="onetrust-policy-text">We use cookies.</p><button id="onetrust-reject-all-handler">Reject All</button><button id="onetrust-accept-btn-handler">Accept</button></div></div>
    <script>window.OnetrustActiveGroups = ',C0001,C0002,'; ${LOCKS.class}
      document.querySelector('#onetrust-reject-all-handler').addEventListener('click', () => { window.OnetrustActiveGroups = ',C0001,'; document.querySelector('#onetrust-banner-sdk').style.display = 'none'; });</script>`,
  },
  // Found but not dismissable, with the site's own backdrop beside the manager's container: only the fallback helps.
  'stuck-backdrop': {
    dialog: `<div class="consent-overlay" style="${BACKDROP}"></div><div id="didomi-host"><div id="didomi-notice" class="didomi-notice-banner" style="${BANNER}"><p>Cookies.</p></div></div>
    <script>${LOCKS.inline}</script>`,
  },
  // A full-screen hero with its headline over a tint: page content, kept beside a dialog.
  'hero-consent': {
    dialog: CONSENT_PAGES.quantcast!,
    content: `<div class="hero" style="position:fixed;top:0;left:0;width:100%;height:100%;background:rgba(0,0,80,0.4);z-index:5"><h2 style="margin:300px 0 0;text-align:center;color:#fff">Welcome</h2></div>`,
  },
  // No dialog: a page-wide tint over the page and a locked body that are the page's own design.
  'fixed-layer': {
    dialog: '',
    content: `<div class="tint" style="${BACKDROP}"></div><script>${LOCKS.inline}</script>`,
  },
};

/** What every leftover page shows under its dialog: a fixed header over a page three screens tall. */
const ARTICLE = `<header style="position:fixed;top:0;left:0;right:0;height:48px;background:rgb(0,0,160);z-index:10"></header>
  <div style="height:2400px;background:linear-gradient(rgb(0,160,0),rgb(0,60,160))"><p style="margin:0;padding:80px 20px">Three screens of article.</p></div>`;

export interface CleanPages {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  /** Paths the ad host was asked for. */
  adHits: string[];
  /** The controls of consent walls (consent-walls.ts) that were clicked, in order. */
  clicks: string[];
  close(): Promise<void>;
}

const page = (res: ServerResponse, body: string) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    `<!doctype html><html><head><meta charset="utf-8"><title>corpus</title></head><body style="margin:0;background:rgb(0,160,0)"><h1>Article</h1>${body}</body></html>`,
  );
};

/**
 * /consent/<name>, /leftovers/<name> and /walls/<name> (both also ?without), /ads (an image from the ad host and an
 * AdSense-style slot), /first-party-ads (an ad the list names by path), /plain; a wall's clicks are posted to /clicked.
 */
export async function startCleanPages(): Promise<CleanPages> {
  const adHits: string[] = [];
  const clicks: string[] = [];
  const sockets = new Set<Socket>();
  let port = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://corpus.test');
    // The ad host, and a first-party path the list blocks on any host (no DNS needed through the guard).
    if (req.headers.host?.startsWith(AD_HOST) || url.pathname === '/advert.png') {
      adHits.push(url.pathname);
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      return void res.end('<svg xmlns="http://www.w3.org/2000/svg" width="300" height="250"><rect width="300" height="250" fill="rgb(255,0,0)"/></svg>');
    }
    const consent = /^\/consent\/([a-z]+)$/.exec(url.pathname)?.[1];
    if (consent && CONSENT_PAGES[consent]) return page(res, CONSENT_PAGES[consent]);
    if (url.pathname === '/ads') {
      return page(
        res,
        `<img id="served-ad" src="http://${AD_HOST}:${port}/pagead/imgad?id=1" width="300" height="250" style="position:absolute;left:0;top:100px">
        <ins class="adsbygoogle" data-ad-client="ca-pub-0000000000000000" data-ad-slot="1" style="display:block;position:absolute;left:400px;top:100px;width:300px;height:250px;background:rgb(255,0,0)"></ins>`,
      );
    }
    if (url.pathname === '/first-party-ads') {
      return page(res, '<img src="/advert.png" width="300" height="250" style="position:absolute;left:0;top:100px">');
    }
    if (url.pathname === '/clicked' && req.method === 'POST') {
      let said = '';
      req.on('data', (chunk: Buffer) => (said += chunk.toString()));
      return void req.on('end', () => {
        clicks.push(said);
        res.writeHead(204).end();
      });
    }
    const [, folder, name = ''] = /^\/(leftovers|walls)\/([a-z-]+)$/.exec(url.pathname) ?? [];
    const { dialog, content = '' } =
      (folder === 'walls' ? { dialog: WALLS[name], content: WALL_CONTENT[name] } : folder === 'leftovers' && LEFTOVER_PAGES[name]) || {};
    if (dialog !== undefined) return page(res, `${ARTICLE}${content}${url.searchParams.has('without') ? '' : dialog}`);
    if (url.pathname === '/plain') return page(res, '<p>Nothing to clean.</p>');
    res.writeHead(404).end();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    adHits,
    clicks,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
