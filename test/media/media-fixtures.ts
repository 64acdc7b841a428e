// Small real files for upload tests, an app user to upload to, and helpers to upload and to
// look at what the media store holds (local disk or S3).
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import type { TestAccount } from '../helpers/accounts.ts';
import { listStoredObjects } from '../helpers/media-storage.ts';
import { pngChunk, pngFile } from '../helpers/png.ts';
import { appUserOf } from '../helpers/factories.ts';
import type { TestResponse, TestServer } from '../helpers/server.ts';

/** A valid 1×1 RGBA PNG; `padding` bytes of tEXt make it as large as a test needs. */
export function png(padding = 0): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const pixels = deflateSync(Buffer.from([0, 255, 0, 0, 255]));
  const chunks = [pngChunk('IHDR', header)];
  if (padding > 0) chunks.push(pngChunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), Buffer.alloc(padding, 'a')])));
  chunks.push(pngChunk('IDAT', pixels), pngChunk('IEND', Buffer.alloc(0)));
  return pngFile(chunks);
}

/** Size of png(padding): 8 signature + IHDR 25 + tEXt (12 + 8 + padding) + IDAT + IEND 12. */
export function pngOfSize(size: number): Buffer {
  const base = png(1);
  const result = png(size - base.length + 1);
  if (result.length !== size) throw new Error(`png of ${result.length} bytes, wanted ${size}`);
  return result;
}

export function pdf(): Buffer {
  return Buffer.from(
    [
      '%PDF-1.4',
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj',
      'trailer << /Root 1 0 R >>',
      '%%EOF',
      '',
    ].join('\n'),
    'latin1',
  );
}

/** A WAV file: 8 kHz, 8-bit mono PCM, `samples` samples of a square wave. */
export function wav(samples = 800): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples, 40);
  const data = Buffer.alloc(samples);
  for (let i = 0; i < samples; i++) data[i] = (i >> 4) % 2 === 0 ? 200 : 56;
  return Buffer.concat([header, data]);
}

/** The start of an MP4 (ftyp + an empty mdat box): enough for its type to be recognised. */
export function mp4(): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypisom', 4, 'ascii');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isommp41', 16, 'ascii');
  const mdat = Buffer.alloc(8);
  mdat.writeUInt32BE(8, 0);
  mdat.write('mdat', 4, 'ascii');
  return Buffer.concat([ftyp, mdat]);
}

export const textFile = Buffer.from('This is plain text, not a picture.\n'.repeat(20));

/** A ZIP archive's local file header: a type file-type knows, and one the gallery refuses. */
export function zip(): Buffer {
  const header = Buffer.alloc(64);
  header.write('PK\x03\x04', 0, 'latin1');
  header.writeUInt16LE(20, 4);
  header.writeUInt16LE(5, 26); // file name length
  header.write('a.txt', 30, 'ascii');
  return header;
}

export async function createAppUser(server: TestServer, account: TestAccount, name = 'Me'): Promise<number> {
  return appUserOf(server.server.ctx.db.kysely, account.id, { name, now: server.clock.now() });
}

export interface UploadOptions {
  name?: string | undefined;
  file?: Buffer | undefined;
  filename?: string;
  /** The content type the client claims for the file. */
  type?: string;
}

export function uploadForm(options: UploadOptions): FormData {
  const form = new FormData();
  if (options.name !== undefined) form.append('name', options.name);
  if (options.file !== undefined) {
    form.append(
      'file',
      new Blob([new Uint8Array(options.file)], { type: options.type ?? 'application/octet-stream' }),
      options.filename ?? 'upload.bin',
    );
  }
  return form;
}

export function upload(server: TestServer, token: string, appUserId: number, options: UploadOptions): Promise<TestResponse> {
  return server.request('POST', `/app/users/${appUserId}/gallery/`, { token, raw: uploadForm(options) });
}

/** A multipart body written by hand, for shapes FormData cannot make. */
export function multipartBody(boundary: string, parts: Array<{ headers: string[]; body: Buffer | string }>, end = true): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n${part.headers.join('\r\n')}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(part.body) ? part.body : Buffer.from(part.body));
    chunks.push(Buffer.from('\r\n'));
  }
  if (end) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/** Everything in the server's media store, uploads being received included (paths on disk, keys in S3). */
export function storedFiles(server: TestServer): Promise<string[]> {
  return listStoredObjects(server.server.ctx.config.mediaStorage);
}

/** Whether the store holds the object under `storageKey` (read through the service's own store). */
export async function isStored(server: TestServer, storageKey: string): Promise<boolean> {
  const stream = await server.server.ctx.media.open(storageKey);
  stream?.destroy();
  return stream !== null;
}

/** Waits until the store no longer holds `storageKey` (removals after a delete go through the outbox). */
export async function waitUntilRemoved(server: TestServer, storageKey: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (await isStored(server, storageKey)) {
    assert.ok(Date.now() < deadline, `${storageKey} is still stored`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The storage key in a signed file URL. */
export function storageKeyOf(fileUrl: string): string {
  return /\/media\/files\/([^?]+)/.exec(fileUrl)![1]!;
}

/** Fetches a signed file URL the service wrote, without any token. */
export function download(server: TestServer, fileUrl: string, init: RequestInit = {}): Promise<Response> {
  return fetch(server.local(fileUrl), init);
}
