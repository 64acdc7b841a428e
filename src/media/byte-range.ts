// One byte range from an HTTP Range header (RFC 9110 §14), so that players can seek in audio
// and video. Several ranges, or a header we cannot read, get the whole file, as the RFC allows.
import type { ByteRange } from '../storage/media-storage.ts';

/** undefined: send the whole file; 'unsatisfiable': 416. */
export function parseByteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    // "bytes=-500": the last 500 bytes.
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  if (start >= size) return 'unsatisfiable';
  const last = match[2] === '' ? size - 1 : Number(match[2]);
  if (last < start) return undefined;
  return { start, end: Math.min(last, size - 1) };
}
