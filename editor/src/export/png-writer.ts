/**
 * Writes PNGs as libpng does for sharp's presets, with the browser's own zlib (CompressionStream):
 * truecolour rows, each with the filter of least absolute sum.
 */

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array, crc = 0xffffffff): number {
  for (let i = 0; i < bytes.length; i += 1) crc = CRC_TABLE[(crc ^ bytes[i]!) & 255]! ^ (crc >>> 8);
  return crc;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i += 1) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, (crc32(out.subarray(4, 8 + data.length)) ^ 0xffffffff) >>> 0);
  return out;
}

/** What byte `i` of `row` is predicted to be by filter `type` (1 Sub, 2 Up, 3 Average, 4 Paeth). */
function predict(type: number, row: Uint8Array, above: Uint8Array, i: number, bpp: number): number {
  const a = i >= bpp ? row[i - bpp]! : 0;
  if (type === 1) return a;
  const b = above[i]!;
  if (type === 2) return b;
  if (type === 3) return (a + b) >> 1;
  const c = i >= bpp ? above[i - bpp]! : 0;
  const pa = Math.abs(b - c);
  const pb = Math.abs(a - c);
  const pc = Math.abs(a + b - 2 * c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** Every this many bytes are tried with each filter: the choice is libpng's, on a sample of the row. */
const SAMPLE_STEP = 5;

/** libpng's heuristic: the filter whose output has the least sum as signed bytes. */
function chooseFilter(row: Uint8Array, above: Uint8Array, bpp: number): number {
  let best = 0;
  let bestSum = Infinity;
  for (let type = 0; type <= 4; type += 1) {
    let sum = 0;
    for (let i = 0; i < row.length; i += SAMPLE_STEP) {
      const value = (row[i]! - (type === 0 ? 0 : predict(type, row, above, i, bpp))) & 255;
      sum += value < 128 ? value : 256 - value;
    }
    if (sum < bestSum) {
      bestSum = sum;
      best = type;
    }
  }
  return best;
}

/** Rows per piece: each is packed, filtered and handed to zlib in turn, so no copy of the whole picture is made. */
const PIECE_ROWS = 128;

/** The rows from `top`, as RGB (dropping alpha) or RGBA, in `into` or a view of `data`. */
function packedRows(data: Uint8ClampedArray, width: number, top: number, rows: number, bpp: number, into: Uint8Array): Uint8Array {
  const start = top * width * 4;
  if (bpp === 4) return new Uint8Array(data.buffer, data.byteOffset + start, rows * width * 4);
  const end = start + rows * width * 4;
  for (let i = start, j = 0; i < end; i += 4, j += 3) {
    into[j] = data[i]!;
    into[j + 1] = data[i + 1]!;
    into[j + 2] = data[i + 2]!;
  }
  return into.subarray(0, rows * width * 3);
}

/** The filtered rows, deflated by the browser's zlib a piece at a time as they are made. */
async function deflatedRows(data: Uint8ClampedArray, width: number, height: number, bpp: number): Promise<Uint8Array> {
  const stride = width * bpp;
  const stream = new CompressionStream('deflate');
  const deflated = new Response(stream.readable).arrayBuffer();
  const writer = stream.writable.getWriter();
  // Two buffers in turn, so the last row of one piece is still there as the first row's "above".
  const buffers = bpp === 3 ? [new Uint8Array(stride * PIECE_ROWS), new Uint8Array(stride * PIECE_ROWS)] : [];
  let above: Uint8Array = new Uint8Array(stride);
  for (let top = 0, piece = 0; top < height; top += PIECE_ROWS, piece += 1) {
    const rows = Math.min(PIECE_ROWS, height - top);
    const pixels = packedRows(data, width, top, rows, bpp, buffers[piece % 2] ?? new Uint8Array(0));
    const out = new Uint8Array((stride + 1) * rows);
    for (let y = 0; y < rows; y += 1) {
      const row = pixels.subarray(y * stride, (y + 1) * stride);
      const type = chooseFilter(row, above, bpp);
      const at = y * (stride + 1);
      out[at] = type;
      applyFilter(type, row, above, bpp, out.subarray(at + 1, at + 1 + stride));
      above = row;
    }
    await writer.ready;
    void writer.write(out);
  }
  await writer.close();
  return new Uint8Array(await deflated);
}

/** One loop per filter, the first pixel apart: a branch per byte costs more than the filtering. */
function applyFilter(type: number, row: Uint8Array, above: Uint8Array, bpp: number, out: Uint8Array): void {
  const n = row.length;
  if (type === 0) out.set(row);
  else if (type === 2) for (let i = 0; i < n; i += 1) out[i] = row[i]! - above[i]!;
  else {
    for (let i = 0; i < bpp; i += 1) out[i] = row[i]! - predict(type, row, above, i, bpp);
    if (type === 1) for (let i = bpp; i < n; i += 1) out[i] = row[i]! - row[i - bpp]!;
    else if (type === 3) for (let i = bpp; i < n; i += 1) out[i] = row[i]! - ((row[i - bpp]! + above[i]!) >> 1);
    else {
      for (let i = bpp; i < n; i += 1) {
        const a = row[i - bpp]!;
        const b = above[i]!;
        const c = above[i - bpp]!;
        const pa = Math.abs(b - c);
        const pb = Math.abs(a - c);
        const pc = Math.abs(a + b - 2 * c);
        out[i] = row[i]! - (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
    }
  }
}

function header(width: number, height: number, colourType: number): Uint8Array {
  const data = new Uint8Array(13);
  const view = new DataView(data.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  data.set([8, colourType, 0, 0, 0], 8);
  return chunk('IHDR', data);
}

function file(parts: Uint8Array[]): Blob {
  return new Blob([new Uint8Array(SIGNATURE), ...parts.map((part) => part as BlobPart), chunk('IEND', new Uint8Array(0)) as BlobPart], { type: 'image/png' });
}

/** Lossless: RGB when every pixel is opaque, else RGBA; rows adaptively filtered. */
export async function truecolourPng(image: ImageData): Promise<Blob> {
  const { width, height, data } = image;
  let opaque = true;
  for (let i = 3; i < data.length && opaque; i += 4) opaque = data[i] === 255;
  const bpp = opaque ? 3 : 4;
  return file([header(width, height, opaque ? 2 : 6), chunk('IDAT', await deflatedRows(data, width, height, bpp))]);
}
