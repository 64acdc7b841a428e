// Values a generated body may hold beyond plain JSON: text that JSON.stringify cannot write
// (-0, 1e309, integers past 2^53, nesting 10,000 deep), and references to the fuzz world's
// objects, filled in when the request is sent (so a replayed seed makes the same request).

/** JSON text written into the body as it is. */
export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toJSON(): string {
    return `<raw ${this.text.length > 60 ? `${this.text.slice(0, 60)}…` : this.text}>`;
  }
}

export type WorldValue = 'ownMedia' | 'foreignMedia' | 'callerPassword' | 'callerEmail' | 'strangerEmail';

/** A value of the fuzz world, resolved when the request is made. */
export class WorldRef {
  readonly name: WorldValue;
  constructor(name: WorldValue) {
    this.name = name;
  }
  toJSON(): string {
    return `<${this.name}>`;
  }
}

export function deepArrays(depth: number): RawJson {
  return new RawJson('['.repeat(depth) + ']'.repeat(depth));
}

export function deepObjects(depth: number): RawJson {
  return new RawJson('{"a":'.repeat(depth) + '1' + '}'.repeat(depth));
}

/** JSON text of `value`, RawJson written as is and WorldRefs replaced through `resolve`. */
export function writeJson(value: unknown, resolve: (ref: WorldRef) => unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof WorldRef) return JSON.stringify(resolve(value));
  if (Array.isArray(value)) return `[${value.map((element) => writeJson(element, resolve)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([key, member]) => `${JSON.stringify(key)}:${writeJson(member, resolve)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `value` with WorldRefs resolved; undefined when it holds RawJson (then it is not a plain value). */
export function plainValue(value: unknown, resolve: (ref: WorldRef) => unknown): unknown {
  if (value instanceof RawJson) return undefined;
  if (value instanceof WorldRef) return resolve(value);
  if (Array.isArray(value)) {
    const elements = value.map((element) => plainValue(element, resolve));
    return elements.includes(undefined) ? undefined : elements;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, member]) => [key, plainValue(member, resolve)] as const);
    return entries.some(([, member]) => member === undefined) ? undefined : Object.fromEntries(entries);
  }
  return value;
}
