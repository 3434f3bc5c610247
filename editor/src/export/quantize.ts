/**
 * Reduces a picture to at most N colours (median cut over a sample, then nearest colour), so oxipng
 * can write it as a palette PNG: the browser's stand-in for libimagequant in sharp's PNG presets.
 */

/** Enough pixels to find a screenshot's colours, few enough to sort quickly. */
const SAMPLE = 400_000;

type Box = number[];

/** Each colour packed as in a little-endian Uint32 view of RGBA bytes. */
const channel = (colour: number, index: number) => (colour >>> (index * 8)) & 255;

function spread(box: Box): { index: number; range: number } {
  let best = { index: 0, range: -1 };
  for (let index = 0; index < 4; index += 1) {
    let low = 255;
    let high = 0;
    for (const colour of box) {
      const value = channel(colour, index);
      if (value < low) low = value;
      if (value > high) high = value;
    }
    if (high - low > best.range) best = { index, range: high - low };
  }
  return best;
}

/** Splits the widest box at its median until there are `count` boxes; each becomes its mean colour. */
function medianCut(sample: Box, count: number): number[] {
  const boxes: Box[] = [sample];
  while (boxes.length < count) {
    let widest = -1;
    let widestRange = 0;
    boxes.forEach((box, index) => {
      const { range } = spread(box);
      if (box.length > 1 && range * box.length > widestRange) {
        widestRange = range * box.length;
        widest = index;
      }
    });
    if (widest < 0) break;
    const box = boxes[widest]!;
    const { index } = spread(box);
    box.sort((a, b) => channel(a, index) - channel(b, index));
    const half = box.length >> 1;
    boxes.splice(widest, 1, box.slice(0, half), box.slice(half));
  }
  return boxes.map((box) => {
    const sums = [0, 0, 0, 0];
    for (const colour of box) for (let index = 0; index < 4; index += 1) sums[index]! += channel(colour, index);
    const mean = sums.map((sum) => Math.round(sum / box.length));
    return (mean[0]! | (mean[1]! << 8) | (mean[2]! << 16) | (mean[3]! << 24)) >>> 0;
  });
}

function nearest(palette: number[], colour: number): number {
  let best = palette[0]!;
  let bestDistance = Infinity;
  for (const candidate of palette) {
    let distance = 0;
    for (let index = 0; index < 4; index += 1) {
      const delta = channel(candidate, index) - channel(colour, index);
      distance += delta * delta;
    }
    if (distance < bestDistance) {
      bestDistance = distance;
      best = candidate;
    }
  }
  return best;
}

/** Replaces every pixel of `image` by the nearest of at most `colours` colours, in place. */
export function quantize(image: ImageData, colours: number): void {
  const pixels = new Uint32Array(image.data.buffer, image.data.byteOffset, image.data.length / 4);
  const step = Math.max(1, Math.floor(pixels.length / SAMPLE));
  const sample: number[] = [];
  for (let index = 0; index < pixels.length; index += step) sample.push(pixels[index]!);
  const palette = medianCut(sample, colours);
  // Screenshots repeat few colours: each is matched once.
  const matched = new Map<number, number>();
  for (let index = 0; index < pixels.length; index += 1) {
    const colour = pixels[index]!;
    let replacement = matched.get(colour);
    if (replacement === undefined) {
      replacement = nearest(palette, colour);
      matched.set(colour, replacement);
    }
    pixels[index] = replacement;
  }
}
