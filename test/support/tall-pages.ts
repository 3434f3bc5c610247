/**
 * Pages taller than Chromium paints in one pass, made of labelled bands, so a test can say for
 * every row of a capture which band it shows; served on 127.0.0.1 for tests and the bench.
 */
import type { Colour } from './images.ts';
import { serveOnLoopback } from './loopback-server.ts';
import type { LoopbackServer } from './loopback-server.ts';

/** Band `index`'s colour: no two of the first 64 alike, none white, black or the layout page's. */
export function bandColour(index: number): Colour {
  return [((index * 53 + 20) % 200) + 30, ((index * 97 + 40) % 200) + 30, ((index * 151 + 80) % 200) + 30];
}

const rgb = (colour: Colour) => `rgb(${colour.join(',')})`;

/** Colours of the layout page's sticky header, `100vh` hero and fixed footer. */
export const LAYOUT_COLOURS = { header: [255, 0, 0], hero: [0, 0, 255], footer: [255, 0, 255] } as const satisfies Record<string, Colour>;
export const LAYOUT = { header: 60, footer: 40, below: 11_000 } as const;

const bands = (height: number, band: number) =>
  Array.from(
    { length: Math.ceil(height / band) },
    (_, index) => `<div style="height:${Math.min(band, height - index * band)}px;background:${rgb(bandColour(index))}"></div>`,
  ).join('');

/** The page at `path`, or undefined. */
function page(path: string, query: URLSearchParams): string | undefined {
  const height = Number(query.get('height') ?? 12_000);
  const band = Number(query.get('band') ?? 1_000);
  switch (path) {
    // `height` CSS px of bands `band` tall from the top.
    case '/bands':
      return `<body style="margin:0;background:#fff">${bands(height, band)}</body>`;
    // One element of bands, `width` wide, 500 px below and right of the page's corner.
    case '/element':
      return `<body style="margin:0;background:#fff;width:${Number(query.get('width') ?? 1_000) + 1_000}px"><div id="tall" style="position:absolute;left:500px;top:500px;width:${query.get('width') ?? 1_000}px">${bands(height, band)}</div></body>`;
    // A sticky header, a 100vh hero, then bands; a footer fixed to the viewport's bottom.
    case '/layout':
      return `<body style="margin:0;background:#fff">
        <header style="position:sticky;top:0;height:${LAYOUT.header}px;background:${rgb(LAYOUT_COLOURS.header)};z-index:2"></header>
        <section style="height:100vh;background:${rgb(LAYOUT_COLOURS.hero)}"></section>${bands(LAYOUT.below, 1_000)}
        <footer style="position:fixed;left:0;bottom:0;width:200px;height:${LAYOUT.footer}px;background:${rgb(LAYOUT_COLOURS.footer)};z-index:2"></footer></body>`;
    default:
      return undefined;
  }
}

export type TallPages = LoopbackServer;

export function startTallPages(host = '127.0.0.1'): Promise<TallPages> {
  return serveOnLoopback((req, res) => {
    const url = new URL(req.url ?? '/', 'http://pages');
    const body = page(url.pathname, url.searchParams);
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><meta charset="utf-8"></head>${body}</html>`);
  }, host);
}
