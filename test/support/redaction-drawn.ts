/**
 * A page of the ways pages put text on the screen, one case a row: the secret in red in the left
 * cell (anything else there black), a look-alike in blue in the right one that must stay. Red is
 * used for nothing else, so no red pixel may remain once the page is redacted. Look-alikes are no
 * valid number anywhere.
 */

export interface DrawnCase {
  name: string;
  /** HTML of the left cell: the secret, drawn red. */
  secret: string;
  /** HTML of the right cell: what must stay untouched, drawn blue. */
  lookAlike: string;
  /** The kind found, or null where the secret is not drawn at all (nothing may be listed). */
  kind: 'email' | 'phone' | 'card' | 'secret' | null;
}

export const ROW_PX = 64;
export const ROWS_TOP = 20;
export const LEFT_CELL = { x: 20, width: 760 };
export const RIGHT_CELL = { x: 900, width: 760 };

const letters = (text: string, style: string) => [...text].map((char) => `<span style="${style}">${char === ' ' ? '&nbsp;' : char}</span>`).join('');

/** A closed shadow root holding `html`, attached by the page's script. */
const closed = (html: string) => `<div data-closed="${html.replace(/"/g, '&quot;')}"></div>`;

const frame = (path: string) => `<iframe src="{second}${path}" style="border:0;width:600px;height:44px" scrolling="no"></iframe>`;

export const DRAWN_CASES: DrawnCase[] = [
  {
    name: 'a stroked heading',
    secret: '<h2 style="-webkit-text-stroke:3px #f00">stroke.user@example.com</h2>',
    lookAlike: '<h2 style="-webkit-text-stroke:3px #00f">stroke.user at example dot com</h2>',
    kind: 'email',
  },
  {
    name: 'a frame of another origin',
    secret: frame('/drawn-frame?colour=f00&text=frame%40example.com'),
    lookAlike: frame('/drawn-frame?colour=00f&text=frame%20at%20example.com'),
    kind: 'email',
  },
  {
    name: 'stroked text in an input',
    secret: '<input value="field.user@example.com" style="-webkit-text-stroke:2px #f00">',
    lookAlike: '<input value="field.user at example" style="-webkit-text-stroke:2px #00f">',
    kind: 'email',
  },
  {
    name: 'emphasis marks',
    secret: '<span style="text-emphasis:filled circle">marks@example.org</span>',
    lookAlike: '<span style="text-emphasis:filled circle">marks at example.org</span>',
    kind: 'email',
  },
  {
    name: 'a skip-ink underline below the text',
    secret: '<span style="text-decoration:underline 3px;text-underline-offset:6px;text-decoration-skip-ink:auto">jay.pigg@example.com</span>',
    lookAlike: '<span style="text-decoration:underline 3px;text-underline-offset:6px;text-decoration-skip-ink:auto">jay.pigg at example</span>',
    kind: 'email',
  },
  {
    name: 'a line of flex items, one a letter',
    secret: `<div style="display:flex">${letters('flex.user@example.com', '')}</div>`,
    lookAlike: `<div style="display:flex">${letters('flex.user at example', '')}</div>`,
    kind: 'email',
  },
  {
    name: 'a heading split into inline-block letters',
    secret: `<h2>${letters('4111 1111 1111 1111', 'display:inline-block')}</h2>`,
    lookAlike: `<h2>${letters('4111 1111 1111 1112', 'display:inline-block')}</h2>`,
    kind: 'card',
  },
  {
    name: 'an address reversed in the DOM, drawn right to left',
    secret: '<bdo dir="rtl">moc.elpmaxe@nhoj</bdo>',
    lookAlike: '<bdo dir="rtl">john@example.com</bdo>',
    kind: 'email',
  },
  {
    name: 'an AWS key id drawn upper-case',
    secret: '<span style="text-transform:uppercase"><span class="plain">key</span> akiaq3egrstuvwxyz234</span>',
    lookAlike: '<span style="text-transform:lowercase">key AKIAQ3EGRSTUVWXYZ234</span>',
    kind: 'secret',
  },
  {
    name: 'an address with a zero-width space, soft hyphen and word joiner',
    secret: 'zero&#8203;.width@exam&shy;ple&#8288;.com',
    lookAlike: 'zero&#8203;.width at exam&shy;ple&#8288;.com',
    kind: 'email',
  },
  {
    name: 'a full-width at sign',
    secret: 'wide＠example.com',
    lookAlike: 'wide＠example',
    kind: 'email',
  },
  {
    name: 'generated content from attr()',
    secret: '<span class="attr-before" data-text="attr@example.com"></span>',
    lookAlike: '<span class="attr-before" data-text="attr at example.com"></span>',
    kind: 'email',
  },
  {
    name: 'generated content from a string',
    secret: '<span class="string-after">Call </span>',
    lookAlike: '<span class="string-after-plain">Call </span>',
    kind: 'phone',
  },
  {
    name: 'an option of a list box',
    secret: '<select size="3" class="plain"><option>Choose one</option><option style="color:#f00">list@example.com</option><option>Other</option></select>',
    lookAlike: '<select size="3"><option>Choose one</option><option>list at example.com</option><option>Other</option></select>',
    kind: 'email',
  },
  {
    name: "a broken image's alt text",
    secret: '<img alt="alt.text@example.com" src="/missing.png" width="400" height="40">',
    lookAlike: '<img alt="alt.text at example" src="/missing.png" width="400" height="40">',
    kind: 'email',
  },
  {
    name: 'a placeholder',
    secret: '<input class="red-placeholder" placeholder="hint@example.com">',
    lookAlike: '<input placeholder="hint at example.com">',
    kind: 'email',
  },
  {
    name: 'SVG text',
    secret: '<svg width="600" height="40"><text x="0" y="28" fill="#f00" font-size="24">svg.text@example.com</text></svg>',
    lookAlike: '<svg width="600" height="40"><text x="0" y="28" fill="#00f" font-size="24">svg.text at example</text></svg>',
    kind: 'email',
  },
  {
    name: 'a closed shadow root',
    secret: closed('<span style="color:#f00">closed@example.com</span>'),
    lookAlike: closed('<span style="color:#00f">closed at example.com</span>'),
    kind: 'email',
  },
  { name: 'text of opacity 0', secret: '<span style="opacity:0">seethrough@example.com</span>', lookAlike: 'seethrough', kind: null },
  { name: 'transparent text', secret: '<span style="color:transparent">transparent@example.com</span>', lookAlike: 'transparent', kind: null },
  { name: 'hidden text', secret: '<span style="visibility:hidden">hidden@example.com</span>', lookAlike: 'hidden', kind: null },
  {
    name: 'text scrolled out of its container',
    secret:
      '<div class="scrolled" style="height:40px;overflow:auto"><div style="height:200px">scrolled@example.com</div><div class="plain">Still here</div></div>',
    lookAlike: 'scrolled',
    kind: null,
  },
  {
    name: 'text below the end of its clipping box',
    secret: '<div style="height:40px;overflow:hidden"><div style="margin-top:48px">clipped@example.com</div></div>',
    lookAlike: 'clipped',
    kind: null,
  },
  { name: 'text off the picture', secret: '<span style="position:absolute;left:-600px">offscreen@example.com</span>', lookAlike: 'offscreen', kind: null },
];

const STYLE = `body{margin:0;background:#fff;color:#f00;font:20px/1.2 sans-serif;width:1800px}
.row{position:absolute;width:1800px;height:${ROW_PX}px}.row>div{position:absolute;top:8px;width:${LEFT_CELL.width}px;white-space:nowrap}
h2{margin:0;font:bold 28px sans-serif}input,select{font:20px sans-serif;color:#f00;width:400px}select[size]{font-size:14px}.secret .plain{color:#000}
.look{color:#00f}.look input,.look select{color:#00f}img{font:20px sans-serif;color:#f00}.look img{color:#00f}
.attr-before::before{content:attr(data-text)}.string-after{color:#000}.string-after::after{color:#f00;content:"+44 20 7946 0958"}.string-after-plain::after{content:"+44 (ask for Jane)"}
.red-placeholder::placeholder{color:#f00}::placeholder{color:#00f}`;

const SCRIPT = `for (const host of document.querySelectorAll('[data-closed]')) host.attachShadow({ mode: 'closed' }).innerHTML = host.dataset.closed;
for (const box of document.querySelectorAll('.scrolled')) box.scrollTop = 190;`;

/** The page: every case a row, `second` the origin of the frames (another site). */
export function drawnPage(second: string): string {
  const rows = DRAWN_CASES.map((entry, i) => {
    const top = ROWS_TOP + i * ROW_PX;
    const cell = (html: string, at: { x: number }, cls: string) => `<div class="${cls}" style="left:${at.x}px">${html.replaceAll('{second}', second)}</div>`;
    return `<div class="row" style="top:${top}px;left:0">${cell(entry.secret, LEFT_CELL, 'secret')}${cell(entry.lookAlike, RIGHT_CELL, 'look')}</div>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><style>${STYLE}</style></head><body>${rows.join('')}<div style="height:${ROWS_TOP + DRAWN_CASES.length * ROW_PX + 20}px"></div><script>${SCRIPT}</script></body></html>`;
}

/** The frame of another origin: one line of text in the colour and words asked for. */
export function drawnFrame(query: URLSearchParams): string {
  const colour = /^[0-9a-f]{3}$/.test(query.get('colour') ?? '') ? query.get('colour') : '000';
  const text = (query.get('text') ?? '').replace(/[<>&"]/g, '');
  return `<!doctype html><html><body style="margin:0;font:20px/1.2 sans-serif;color:#${colour}">${text}</body></html>`;
}
