// E-mails written as .eml files (no SMTP_URL, the `npm start` default).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WAIT_MS } from './wait.ts';

/** Waits (up to WAIT_MS) for at least `count` .eml files in `dir`; returns their texts, quoted-printable undone. */
export async function mailFiles(dir: string, count: number): Promise<string[]> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const files = existsSync(dir) ? readdirSync(dir).filter((name) => name.endsWith('.eml')) : [];
    if (files.length >= count) {
      return files.map((name) =>
        readFileSync(join(dir, name), 'utf8')
          .replace(/=\r?\n/g, '')
          .replace(/=3D/g, '='),
      );
    }
    if (Date.now() > deadline) throw new Error(`expected ${count} .eml files in ${dir}, found ${files.length}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
