// account.json is written to a temporary file while the account is read, then sent from it.
// The snapshot's transaction then lasts as long as the database takes to answer, never as long
// as a slow client takes to download (PostgreSQL ends transactions left idle), and memory holds
// one page of the account at a time. The file is removed once the archive is sent or abandoned;
// one left by a crash is in EXPORT_SPOOL_DIR (the system's temporary directory by default),
// named profile-service-export-*.
import { once } from 'node:events';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/** Text gathered before it goes to the file: one write call per 64 KiB, not one per JSON piece. */
const FLUSH_AT = 64 * 1024;

export class ExportSpool {
  readonly #dir: string;
  readonly #path: string;
  readonly #file: WriteStream;
  #pending: string[] = [];
  #pendingLength = 0;

  private constructor(dir: string) {
    this.#dir = dir;
    this.#path = join(dir, 'account.json');
    this.#file = createWriteStream(this.#path);
  }

  static async create(parent: string): Promise<ExportSpool> {
    await mkdir(parent, { recursive: true });
    return new ExportSpool(await mkdtemp(join(parent, 'profile-service-export-')));
  }

  write(text: string): void {
    this.#pending.push(text);
    this.#pendingLength += text.length;
  }

  /** Hands what was written to the file once enough has gathered, waiting while the disk catches up. */
  async flush(force = false): Promise<void> {
    if (this.#pendingLength === 0 || (!force && this.#pendingLength < FLUSH_AT)) return;
    const text = this.#pending.join('');
    this.#pending = [];
    this.#pendingLength = 0;
    if (!this.#file.write(text)) await once(this.#file, 'drain');
  }

  /** Writes the rest and closes the file. */
  async finish(): Promise<void> {
    await this.flush(true);
    this.#file.end();
    await once(this.#file, 'close');
  }

  read(): Readable {
    return createReadStream(this.#path);
  }

  async remove(): Promise<void> {
    this.#file.destroy();
    await rm(this.#dir, { recursive: true, force: true });
  }
}
