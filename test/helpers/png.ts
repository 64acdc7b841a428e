// The PNG container, for the tests' made pictures (test/media/media-fixtures.ts,
// test/browser/picture.ts): chunks with their length and CRC, behind the signature.
import { crc32 } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG file of these chunks (IHDR first, IEND last). */
export function pngFile(chunks: Buffer[]): Buffer {
  return Buffer.concat([SIGNATURE, ...chunks]);
}
