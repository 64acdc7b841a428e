// A large answer (the data export's account.json, the views of the largest accounts) is written
// to a temporary file while it is read, then sent from it. The database snapshot it is read in
// then lasts as long as the database takes to answer, never as long as a slow client takes to
// download (PostgreSQL ends transactions left idle), and memory holds one page at a time. The
// file is removed once the answer is sent or abandoned; one left by a crash is in SPOOL_DIR (the
// system's temporary directory by default), in a folder named profile-service-spool-*.
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Readable } from 'node:stream';

/** Text gathered before it goes to the file: one write call per 64 KiB, not one per JSON piece. */
const FLUSH_AT = 64 * 1024;

export class SpoolFile {
  readonly #dir: string;
  readonly #path: string;
  readonly #file: WriteStream;
  #pending: string[] = [];
  #pendingLength = 0;

  private constructor(dir: string) {
    this.#dir = dir;
    this.#path = join(dir, 'spooled.json');
    this.#file = createWriteStream(this.#path);
  }

  static async create(parent: string): Promise<SpoolFile> {
    await mkdir(parent, { recursive: true });
    return new SpoolFile(await mkdtemp(join(parent, 'profile-service-spool-')));
  }

  write(text: string): void {
    this.#pending.push(text);
    this.#pendingLength += text.length;
  }

  /**
   * Between two pages: hands what was written to the file once enough has gathered (waiting
   * while the disk catches up), then lets other requests run.
   */
  async betweenPages(): Promise<void> {
    if (this.#pendingLength >= FLUSH_AT) await this.#flush();
    await nextTurn();
  }

  /** Writes the rest and closes the file. */
  async finish(): Promise<void> {
    await this.#flush();
    this.#file.end();
    await once(this.#file, 'close');
  }

  /** The file's content, then what `tail` returns once the file has been read. */
  read(tail?: () => string): Readable {
    const path = this.#path;
    return Readable.from(
      (async function* () {
        yield* createReadStream(path);
        if (tail) yield Buffer.from(tail());
      })(),
    );
  }

  async remove(): Promise<void> {
    this.#file.destroy();
    await rm(this.#dir, { recursive: true, force: true });
  }

  async #flush(): Promise<void> {
    if (this.#pendingLength === 0) return;
    const text = this.#pending.join('');
    this.#pending = [];
    this.#pendingLength = 0;
    if (!this.#file.write(text)) await once(this.#file, 'drain');
  }
}

/** Whether an answer is a stream to send as it is (a spooled one), not a value to serialise. */
export function isStream(value: unknown): value is Readable {
  return typeof value === 'object' && value !== null && typeof (value as Readable).pipe === 'function';
}
