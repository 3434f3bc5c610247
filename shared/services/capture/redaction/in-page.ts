/** Run in an isolated world on nodes DevTools hands them; each is sent as its source: no helpers, no named inner functions. */

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface TextNode {
  ownerDocument: {
    createRange(): { setStart(node: TextNode, offset: number): void; setEnd(node: TextNode, offset: number): void; getClientRects(): ArrayLike<Rect> };
  };
}

/** Per text node (last argument: its `[start, end, boxStart, boxEnd]`), viewport-px rects of the part and its line box; null: gone or undrawn. */
export function rangeRects(...args: unknown[]): ({ part: Rect; box: Rect } | null)[] {
  const ranges = args[args.length - 1] as [number, number, number, number][];
  return ranges.map((offsets, i) => {
    const node = args[i] as TextNode | null;
    if (!node) return null;
    const rects: (Rect | null)[] = [];
    for (const [start, end] of [
      [offsets[0], offsets[1]],
      [offsets[2], offsets[3]],
    ] as [number, number][]) {
      try {
        const range = node.ownerDocument.createRange();
        range.setStart(node, start);
        range.setEnd(node, end);
        let left = Infinity;
        let top = Infinity;
        let right = -Infinity;
        let bottom = -Infinity;
        for (const rect of Array.from(range.getClientRects())) {
          if (rect.width <= 0 && rect.height <= 0) continue;
          left = Math.min(left, rect.x);
          top = Math.min(top, rect.y);
          right = Math.max(right, rect.x + rect.width);
          bottom = Math.max(bottom, rect.y + rect.height);
        }
        rects.push(right > left ? { x: left, y: top, width: right - left, height: bottom - top } : null);
      } catch {
        rects.push(null);
      }
    }
    return rects[0] && rects[1] ? { part: rects[0], box: rects[1] } : null;
  });
}

/** For each img given: drawn (loaded, with pixels), broken (failed or no source: its alt text shows) or loading; null where gone. */
export function imageStates(...images: unknown[]): ('drawn' | 'broken' | 'loading' | null)[] {
  return images.map((value) => {
    const image = value as { complete: boolean; naturalWidth: number } | null;
    if (!image) return null;
    if (!image.complete) return 'loading';
    return image.naturalWidth > 0 ? 'drawn' : 'broken';
  });
}

/** Pauses every animation (shadow trees too) and answers a frame later, when the pause holds on the main thread and compositor together. */
export function pauseAnimations(): Promise<number> {
  const animations = (globalThis as unknown as { document: { getAnimations(): { pause(): void; ready: Promise<unknown> }[] } }).document.getAnimations();
  for (const animation of animations) animation.pause();
  return Promise.all(animations.map((animation) => animation.ready)).then(
    () => animations.length,
    () => animations.length,
  );
}
