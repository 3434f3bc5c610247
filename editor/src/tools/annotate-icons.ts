/** The annotation toolbar's icons, drawn as SVG elements (the CSP allows no HTML strings). */

const SVG = 'http://www.w3.org/2000/svg';

type Part = [tag: string, attributes: Record<string, string>];

const path = (d: string, extra: Record<string, string> = {}): Part => ['path', { d, ...extra }];

/** 24 × 24, stroked with the button's text colour. */
const ICONS: Record<string, Part[]> = {
  select: [path('M6 3.5l12 7.2-5.3 1.2 3.2 5.6-2.3 1.3-3.2-5.6L6.5 17z', { fill: 'currentColor', 'stroke-width': '1.2' })],
  arrow: [path('M5 19L18 6'), path('M10 5.5h8.5V14')],
  line: [path('M5 19L19 5')],
  rect: [['rect', { x: '4', y: '6', width: '16', height: '12', rx: '2' }]],
  ellipse: [['ellipse', { cx: '12', cy: '12', rx: '8.5', ry: '6.5' }]],
  highlight: [path('M4 20.5h16', { 'stroke-width': '2.5', opacity: '0.55' }), path('M8.5 16.5l-2-2L15 6l2.5 2.5L9 17z'), path('M6.5 14.5L5 17.5h3.5')],
  pen: [path('M4.5 16.5c2.5-6 4.5-8.5 6-7.5s-1.5 6 .5 7 3.5-5 5.5-7.5 3 .5 3 .5')],
  text: [path('M5.5 7V5h13v2'), path('M12 5v14'), path('M9 19h6')],
  step: [['circle', { cx: '12', cy: '12', r: '8.5' }], path('M10.5 9.5L12.5 8v8', { 'stroke-width': '1.8' })],
  blur: [path('M12 3.5c3.2 4 5.5 6.9 5.5 10a5.5 5.5 0 0 1-11 0c0-3.1 2.3-6 5.5-10z'), path('M9.5 14.5a2.5 2.5 0 0 0 2.5 2.5', { opacity: '0.6' })],
  pixelate: [
    ['rect', { x: '4', y: '4', width: '5.3', height: '5.3', fill: 'currentColor', stroke: 'none' }],
    ['rect', { x: '14.7', y: '4', width: '5.3', height: '5.3', fill: 'currentColor', stroke: 'none' }],
    ['rect', { x: '9.3', y: '9.3', width: '5.3', height: '5.3', fill: 'currentColor', stroke: 'none' }],
    ['rect', { x: '4', y: '14.7', width: '5.3', height: '5.3', fill: 'currentColor', stroke: 'none' }],
    ['rect', { x: '14.7', y: '14.7', width: '5.3', height: '5.3', fill: 'currentColor', stroke: 'none' }],
    ['rect', { x: '4', y: '4', width: '16', height: '16', rx: '1' }],
  ],
  undo: [path('M9 14L4 9l5-5'), path('M4 9h10.5a5.5 5.5 0 0 1 0 11H11')],
  redo: [path('M15 14l5-5-5-5'), path('M20 9H9.5a5.5 5.5 0 0 0 0 11H13')],
};

export function icon(name: string): SVGSVGElement | undefined {
  const parts = ICONS[name];
  if (!parts) return undefined;
  const svg = document.createElementNS(SVG, 'svg');
  for (const [key, value] of Object.entries({
    viewBox: '0 0 24 24',
    width: '20',
    height: '20',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': 'true',
    focusable: 'false',
  })) {
    svg.setAttribute(key, value);
  }
  for (const [tag, attributes] of parts) {
    const element = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    svg.append(element);
  }
  return svg;
}
