// The export's ZIP archive, written as it is sent: each media file streamed from the store
// through yazl into the response, one at a time (the next is opened only once the last has been
// read), with the response's backpressure, so memory does not grow with the archive. Media
// entries are stored as they are (already compressed formats); account.json comes last,
// deflated, streamed from its spool file, so it can say which files were missing: a file gone
// from the store by its turn (deleted meanwhile) has no entry and its resource's `path` is
// null. The response has begun by then, so nothing else could tell the client. A client that
// goes away stops the writing and closes the file being read; a store that fails mid-way cuts
// the response off (an incomplete ZIP, never a complete-looking one). When the response ends,
// whichever way, `onClose` runs and the spool file is removed.
import type { PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import { ZipFile } from 'yazl';
import type { MediaStorage } from '../../storage/media-storage.ts';
import type { ExportSnapshot } from './export-document.ts';

export function streamExportArchive(
  storage: MediaStorage,
  snapshot: ExportSnapshot,
  log: FastifyBaseLogger,
  onClose: () => void,
): Readable {
  const zip = new ZipFile();
  // A PassThrough (yazl's types say only NodeJS.ReadableStream).
  const output = zip.outputStream as PassThrough;
  const mtime = new Date(snapshot.exportedAt);
  let reading: Readable | undefined;
  // Destroyed by Fastify when the client goes away; also closes at the normal end, when nothing is being read.
  output.once('close', () => {
    reading?.destroy();
    onClose();
    snapshot.spool.remove().catch((error: unknown) => log.warn({ err: error }, 'export: the spool file could not be removed'));
  });
  zip.on('error', (error) => output.destroy(error));

  async function write(): Promise<void> {
    for (const file of snapshot.files) {
      const source = await storage.open(file.storageKey);
      if (output.destroyed) {
        source?.destroy();
        return;
      }
      if (!source) {
        log.warn({ storageKey: file.storageKey }, 'export: a media file was gone; its path is null');
        file.entry.path = null;
        continue;
      }
      reading = source;
      zip.addReadStream(source, file.path, { compress: false, mtime });
      await finished(source);
      reading = undefined;
    }
    if (output.destroyed) return;
    zip.addReadStream(snapshot.spool.read(snapshot.tail), 'account.json', { mtime });
    zip.end();
  }

  write().catch((error: unknown) => {
    reading?.destroy();
    if (output.destroyed) return; // the client went away: not an error
    log.error({ err: error }, 'export: the archive could not be completed');
    output.destroy(error as Error);
  });
  return output;
}
