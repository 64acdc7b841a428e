// Bytes a cache keeps, each in memory of its own. Node hands out a Buffer smaller than half of
// Buffer.poolSize (64 KiB on Node 24) as a slice of a shared slab, and a slice kept holds its
// whole slab: 10,000 buffers of 360 bytes kept among a process's other small ones held 202 MB
// of slabs for 3.6 MB of bytes. The rendering cache's byte budget counts what it keeps, so what it
// keeps must be no more than that.

/** `bytes` itself when it is the whole of its memory, else a copy in memory of its own. */
export function keptBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) return bytes;
  const own = Buffer.allocUnsafeSlow(bytes.byteLength);
  own.set(bytes);
  return own;
}

/** `text` as UTF-8, in memory of its own. */
export function keptUtf8(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  bytes.write(text);
  return bytes;
}
