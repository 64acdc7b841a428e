// A real picture to upload: a small landscape (sky, sun, hills) as a PNG made here, so the
// gallery and the screenshots show something a person would recognise as an image.
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

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
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}
