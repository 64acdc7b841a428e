// Reads an upload (multipart/form-data with `name` and `file`) as it streams in: the file
// goes straight to storage under a generated key, its type judged from its first bytes and
// its size counted and its bytes hashed on the way (a retry under an Idempotency-Key is the
// same request only with the same bytes). Nothing the client says about the file (name,
// content type) is used. The request body is always read to its end, so the connection stays usable.
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AppContext } from '../context.ts';
import { type Message, message } from '../errors.ts';
import { HttpError } from '../http/errors.ts';
import type { IncomingFile } from '../storage/media-storage.ts';
import { detectMediaType, SNIFF_BYTES } from './media-types.ts';
import { newStorageKey } from '../storage/storage-keys.ts';

/** Busboy's limits for an upload; the file's own limit is MEDIA_MAX_BYTES. */
export function uploadLimits(maxBytes: number) {
  return {
    fileSize: maxBytes,
    files: 5,
    fields: 20,
    parts: 25,
    fieldNameSize: 100,
    // name is at most 255 characters: 4 KiB holds it in any UTF-8.
    fieldSize: 4096,
    headerPairs: 100,
  };
}

/** Room for the form's boundaries, part headers and text fields around the file itself. */
const FORM_OVERHEAD_BYTES = 256 * 1024;

const MESSAGES = {
  noFile: 'media.noFile',
  empty: 'media.emptyFile',
  type: 'media.wrongType',
} as const satisfies Record<string, Message>;

export interface ReceivedFile {
  storageKey: string;
  contentType: string;
  incoming: IncomingFile;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
}

/** The text fields as sent (the caller trims and checks them), and the file or why there is none. */
export type UploadForm =
  | { fields: Record<string, unknown>; file: ReceivedFile; fileError?: undefined }
  | { fields: Record<string, unknown>; file?: undefined; fileError: Message };

/** The client broke the multipart stream (cut it short, malformed it). */
class MalformedUpload extends Error {}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, message('media.tooLarge', { max: maxBytes }));
}

/**
 * The rest of a broken stream is not read, so the connection is closed after the reply
 * instead of being reused.
 */
function toHttpError(error: MalformedUpload): HttpError {
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  const close = { Connection: 'close' };
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new HttpError(413, 'media.tooManyParts', close);
  }
  return new HttpError(400, 'media.malformedMultipart', close);
}

/** Reads a part's stream to its end, keeping nothing. */
async function drain(iterator: AsyncIterator<Buffer>): Promise<void> {
  try {
    while (!(await iterator.next()).done) {
      /* discard */
    }
  } catch (error) {
    throw new MalformedUpload('malformed upload', { cause: error });
  }
}

async function nextChunk(iterator: AsyncIterator<Buffer>): Promise<IteratorResult<Buffer>> {
  try {
    return await iterator.next();
  } catch (error) {
    throw new MalformedUpload('malformed upload', { cause: error });
  }
}

/** Sniffs the type from the first bytes, then streams the whole file into storage. */
async function receiveFile(ctx: AppContext, part: MultipartFile): Promise<{ file?: ReceivedFile; error?: Message }> {
  const chunks = part.file[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < SNIFF_BYTES) {
    const step = await nextChunk(chunks);
    if (step.done) {
      ended = true;
      break;
    }
    head.push(step.value);
    headLength += step.value.length;
  }
  if (headLength === 0) return { error: MESSAGES.empty };
  const headBytes = Buffer.concat(head);
  const type = await detectMediaType(headBytes);
  if (!type) {
    if (!ended) await drain(chunks);
    return { error: MESSAGES.type };
  }

  const storageKey = newStorageKey(type.extension);
  const digest = createHash('sha256').update(headBytes);
  const body = Readable.from(
    (async function* () {
      yield headBytes;
      if (ended) return;
      for (;;) {
        const step = await nextChunk(chunks);
        if (step.done) return;
        digest.update(step.value);
        yield step.value;
      }
    })(),
  );
  try {
    const incoming = await ctx.media.receive(storageKey, body);
    return { file: { storageKey, contentType: type.mime, incoming, sha256: digest.digest('hex') } };
  } catch (error) {
    // The storage failed (not the client): read the rest so the reply can still be sent.
    if (!(error instanceof MalformedUpload)) await drain(chunks).catch(() => {});
    throw error;
  }
}

/**
 * Reads the upload form. Throws 415 for a body that is not multipart, 413 when the file is
 * over MEDIA_MAX_BYTES (nothing is kept), 400 for a malformed body.
 */
export async function readUploadForm(ctx: AppContext, request: FastifyRequest): Promise<UploadForm> {
  const maxBytes = ctx.config.mediaMaxBytes;
  if (!request.isMultipart()) {
    throw new HttpError(415, 'media.notMultipart');
  }
  // A body declared larger than any acceptable upload is refused before it is read.
  if (Number(request.headers['content-length']) > maxBytes + FORM_OVERHEAD_BYTES) throw tooLarge(maxBytes);

  const fields: Record<string, unknown> = {};
  let fileSeen = false;
  let file: ReceivedFile | undefined;
  let fileError: Message | undefined;
  let oversize = false;
  const parts = request.parts();
  try {
    for (;;) {
      let step: IteratorResult<MultipartFile | MultipartValue>;
      try {
        step = await parts.next();
      } catch (error) {
        throw new MalformedUpload('malformed upload', { cause: error });
      }
      if (step.done) break;
      const part = step.value;
      if (part.type === 'field') {
        // Only the first value of a repeated field counts. A value cut short at fieldSize
        // (4096 bytes, so over 1,000 characters) still fails the length check as it should.
        // A text field named `file` is no file: it leaves the file missing.
        if (!Object.hasOwn(fields, part.fieldname)) {
          fields[part.fieldname] = part.value;
        }
        continue;
      }
      if (part.fieldname !== 'file' || fileSeen) {
        // Other file fields are ignored like any unknown field; only the first `file` counts.
        await drain(part.file[Symbol.asyncIterator]());
        continue;
      }
      fileSeen = true;
      const received = await receiveFile(ctx, part);
      if (part.file.truncated) {
        oversize = true;
        await received.file?.incoming.discard();
        continue;
      }
      file = received.file;
      fileError = received.error;
    }
  } catch (error) {
    await file?.incoming.discard();
    if (error instanceof MalformedUpload) throw toHttpError(error);
    throw error;
  }
  if (oversize) {
    await file?.incoming.discard();
    throw tooLarge(maxBytes);
  }
  return file ? { fields, file } : { fields, fileError: fileError ?? MESSAGES.noFile };
}
