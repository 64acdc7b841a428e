// Media files of a given size that the gallery accepts (it judges the type from the bytes).
import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}

/** A 1×1 PNG of `size` bytes: its bulk is a private chunk of random bytes. */
export function pngOfSize(size: number): Buffer {
  const header = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
  const start = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header)]);
  const end = Buffer.concat([chunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0, 255]))), chunk('IEND', Buffer.alloc(0))]);
  return Buffer.concat([start, chunk('raNd', randomBytes(size - start.length - end.length - 12)), end]);
}
