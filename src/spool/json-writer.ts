// JSON written a piece at a time, exactly as JSON.stringify(document, null, indent) would write
// it whole: large answers (the data export, the views of the largest accounts) are read in pages
// and written as they come, so neither memory nor the longest pause of the event loop grows
// with what an account holds.

type Frame = { close: '}' | ']'; empty: boolean };

export class JsonWriter {
  readonly #write: (text: string) => void;
  readonly #indent: number;
  readonly #open: Frame[] = [];

  /** `write` receives the text in order; `indent` as JSON.stringify's third argument (0: compact). */
  constructor(write: (text: string) => void, indent = 0) {
    this.#write = write;
    this.#indent = indent;
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
    const text = JSON.stringify(value, null, this.#indent);
    this.#begin(key, this.#indent === 0 ? text : text.replaceAll('\n', this.#newLine(this.#open.length)));
  }

  /** Each member of `object` but those in `except`, in its own order. */
  members(object: object, except: string): void {
    for (const [key, value] of Object.entries(object)) if (key !== except) this.value(value, key);
  }

  close(): void {
    const frame = this.#open.pop();
    if (!frame) throw new Error('JsonWriter: nothing is open');
    this.#write(frame.empty ? frame.close : `${this.#newLine(this.#open.length)}${frame.close}`);
  }

  #newLine(depth: number): string {
    return this.#indent === 0 ? '' : `\n${' '.repeat(this.#indent * depth)}`;
  }

  #begin(key: string | undefined, text: string): void {
    const frame = this.#open.at(-1);
    let prefix = '';
    if (frame) {
      prefix = `${frame.empty ? '' : ','}${this.#newLine(this.#open.length)}`;
      frame.empty = false;
    }
    const separator = this.#indent === 0 ? ':' : ': ';
    this.#write(key === undefined ? prefix + text : `${prefix}${JSON.stringify(key)}${separator}${text}`);
  }
}
