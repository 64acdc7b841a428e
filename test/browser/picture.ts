// A real picture to upload: a small landscape (sky, sun, hills) as a PNG made here, so the
// gallery and the screenshots show something a person would recognise as an image.
import { deflateSync } from 'node:zlib';
import { pngChunk, pngFile } from '../helpers/png.ts';

function colourAt(x: number, y: number, width: number, height: number): [number, number, number] {
  const hill = height * (0.68 + 0.1 * Math.sin((x / width) * Math.PI * 2.2));
  if (y > hill) return [46 + Math.round((y / height) * 30), 125, 50];
  const [sunX, sunY] = [width * 0.72, height * 0.3];
  if ((x - sunX) ** 2 + (y - sunY) ** 2 < (height * 0.12) ** 2) return [255, 200, 60];
  const t = y / height;
  return [Math.round(90 + 120 * t), Math.round(150 + 70 * t), 235];
}

/** A `width`×`height` RGB PNG of a landscape. */
export function landscapePng(width = 320, height = 200): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1); // each row starts with filter type 0
    for (let x = 0; x < width; x++) rows.set(colourAt(x, y, width, height), row + 1 + x * 3);
  }
  return pngFile([pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', Buffer.alloc(0))]);
}
