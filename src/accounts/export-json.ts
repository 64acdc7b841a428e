// account.json written a piece at a time, exactly as JSON.stringify(document, null, 2) would
// write it whole: the export reads the account in pages and writes each as it comes, so
// neither memory nor the longest pause of the event loop grows with the account.

type Frame = { close: '}' | ']'; empty: boolean };

export class JsonWriter {
  readonly #write: (text: string) => void;
  readonly #open: Frame[] = [];

  /** `write` receives the text in order. */
  constructor(write: (text: string) => void) {
    this.#write = write;
  }

  /** Opens an object: the document itself, an array's element, or the member `key` of the open object. */
  openObject(key?: string): void {
    this.#begin(key, '{');
    this.#open.push({ close: '}', empty: true });
  }

  openArray(key?: string): void {
    this.#begin(key, '[');
    this.#open.push({ close: ']', empty: true });
  }

  /** A whole value: an array's element, or the member `key` of the open object. */
  value(value: unknown, key?: string): void {
    const indent = `\n${'  '.repeat(this.#open.length)}`;
    this.#begin(key, JSON.stringify(value, null, 2).replaceAll('\n', indent));
  }

  close(): void {
    const frame = this.#open.pop();
    if (!frame) throw new Error('JsonWriter: nothing is open');
    this.#write(frame.empty ? frame.close : `\n${'  '.repeat(this.#open.length)}${frame.close}`);
  }

  #begin(key: string | undefined, text: string): void {
    const frame = this.#open.at(-1);
    let prefix = '';
    if (frame) {
      prefix = `${frame.empty ? '' : ','}\n${'  '.repeat(this.#open.length)}`;
      frame.empty = false;
    }
    this.#write(key === undefined ? prefix + text : `${prefix}${JSON.stringify(key)}: ${text}`);
  }
}
