// Reads a QR code back out of a picture (jsqr over pngjs's pixels), as a phone's camera would:
// what the printable card of an emergency link carries, checked against the link itself.
import { createRequire } from 'node:module';
import { PNG } from 'pngjs';

// jsqr is a UMD bundle whose module.exports is the function; its types call it a default export.
const jsQR = createRequire(import.meta.url)('jsqr') as typeof import('jsqr').default;

/** The text of the QR code in a PNG; fails when the picture holds none. */
export function qrTextOfPng(png: Buffer): string {
  const image = PNG.sync.read(png);
  const pixels = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
  const code = jsQR(pixels, image.width, image.height, { inversionAttempts: 'dontInvert' });
  if (!code) throw new Error(`no QR code found in a ${image.width}×${image.height} picture`);
  return code.data;
}

/** The text of the QR code in a `data:image/png;base64,…` URL. */
export function qrTextOfDataUrl(url: string): string {
  const match = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(url);
  if (!match) throw new Error(`not a PNG data URL: ${url.slice(0, 60)}…`);
  return qrTextOfPng(Buffer.from(match[1]!, 'base64'));
}
