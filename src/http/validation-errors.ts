// Turns Ajv's errors into the field-keyed 400 body of docs/api-conventions.md, with messages a client
// may show to a person.
import type { FastifySchemaValidationError } from 'fastify';
import { ApiMessage, type FieldErrors, isMessage, type Message, message } from '../errors.ts';

const TYPE_NAMES: Record<string, Message> = {
  integer: 'validation.integer',
  number: 'validation.number',
  string: 'validation.string',
  boolean: 'validation.boolean',
  array: 'validation.list',
  object: 'validation.object',
};

const PHONE_MESSAGE = 'validation.phone';

/** An emergency link's PIN (docs/emergency-links.md); its schemas use this pattern, so the message can say what a PIN is. */
export const PIN_PATTERN = '^[0-9]{4,8}$';
const PIN_MESSAGE = 'validation.pin';

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value === 'object' ? 'dictionary' : typeof value;
}

function messageFor(error: FastifySchemaValidationError, value: unknown): Message {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'validation.required';
    case 'type': {
      if (value === null) return 'validation.notNull';
      const types = String(params.type)
        .split(',')
        .filter((t) => t !== 'null');
      return TYPE_NAMES[types[0]!] ?? message('validation.expectedTypes', { types: types.join(' or ') });
    }
    case 'minLength':
      return params.limit === 1 ? 'validation.blank' : message('validation.minLength', { limit: Number(params.limit) });
    case 'maxLength':
      return message('validation.maxLength', { limit: Number(params.limit) });
    case 'minimum':
      return message('validation.minimum', { limit: Number(params.limit) });
    case 'maximum':
      return message('validation.maximum', { limit: Number(params.limit) });
    case 'minItems':
      return message('validation.minItems', { limit: Number(params.limit) });
    case 'maxItems':
      return message('validation.maxItems', { limit: Number(params.limit) });
    case 'format':
      if (params.format === 'email') return 'validation.email';
      return params.format === 'date-time' ? 'validation.dateTime' : message('validation.format', { format: String(params.format) });
    case 'pattern':
      if (params.pattern === PIN_PATTERN) return PIN_MESSAGE;
      return String(params.pattern).includes('\\d{9,15}') ? PHONE_MESSAGE : 'validation.pattern';
    case 'enum':
    case 'const':
      return message('validation.choice', { value: typeof value === 'object' ? JSON.stringify(value) : String(value) });
    default:
      return error.message ? message('validation.invalidWithReason', { reason: error.message }) : 'validation.invalid';
  }
}

function valueAt(root: unknown, segments: string[]): unknown {
  let value = root;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

function decodePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * How deep a 400 body's objects nest: the body itself is level 1, each nested object or list
 * element one more. Bodies the schemas accept need 3; the documented FieldErrors schema has a
 * fixed depth (contract-testing tools refuse a self-referencing one), so an error about a
 * field deeper down (a string with a control character inside unknown nested fields) is
 * reported at its ancestor on the last level.
 */
export const FIELD_ERROR_LEVELS = 4;

/** The path cut at the field on the last level, if it goes deeper. */
function withinLevels(segments: string[]): string[] {
  let level = 1;
  for (let i = 0; i < segments.length; i++) {
    // A number after a field is an element of the list that field holds (see below).
    if (i > 0 && /^\d+$/.test(segments[i]!)) continue;
    if (i + 1 < segments.length && level === FIELD_ERROR_LEVELS) return segments.slice(0, i + 1);
    level++;
  }
  return segments;
}

/**
 * Sets errors[a][b]… = [message], making arrays for numeric segments (DRF's list errors); no
 * deeper than FIELD_ERROR_LEVELS.
 */
export function placeFieldError(errors: FieldErrors, path: string[], message: Message): void {
  const segments = withinLevels(path);
  // biome-ignore lint/suspicious/noExplicitAny: walks a tree of objects and arrays that this loop itself builds
  let node: any = errors;
  for (let i = 0; i < segments.length - 1; i++) {
    const key = segments[i]!;
    const nextIsIndex = /^\d+$/.test(segments[i + 1]!);
    if (node[key] === undefined || (Array.isArray(node[key]) && isMessage(node[key][0]))) {
      node[key] = nextIsIndex ? [] : {};
    }
    node = node[key];
    if (Array.isArray(node) && nextIsIndex) {
      const index = Number(segments[i + 1]);
      while (node.length <= index) node.push({});
    }
  }
  const last = segments[segments.length - 1]!;
  if (Array.isArray(node)) {
    // A list element that is not an object at all: DRF's {"non_field_errors": [...]} for it.
    const element = node[Number(last)] ?? {};
    if (Object.keys(element).length === 0) element.non_field_errors = [message];
    node[Number(last)] = element;
    return;
  }
  // Errors already nested under this field (from one branch of a nullable object) say more
  // than another branch's "must be null": keep them.
  if (node[last] !== undefined && !(Array.isArray(node[last]) && isMessage(node[last][0]))) return;
  if (!Array.isArray(node[last])) node[last] = [];
  if (!node[last].some((placed: Message) => sameMessage(placed, message))) node[last].push(message);
}

function sameMessage(a: Message, b: Message): boolean {
  if (a instanceof ApiMessage && b instanceof ApiMessage) return a.key === b.key && JSON.stringify(a.values) === JSON.stringify(b.values);
  return a === b;
}

export function formatValidationErrors(errors: FastifySchemaValidationError[], body: unknown): FieldErrors {
  const result: FieldErrors = {};
  // For union schemas (anyOf) Ajv reports each branch's failure; report one message per field.
  const seen = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const segments = decodePointer(error.instancePath);
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required') segments.push(String(params.missingProperty));
    const key = segments.join('/');
    if (seen.has(key)) continue;
    seen.add(key);
    const value = valueAt(body, segments);
    if (segments.length === 0) {
      result.non_field_errors = [message('validation.notAnObject', { type: describe(value) })];
      continue;
    }
    placeFieldError(result, segments, messageFor(error, value));
  }
  return result;
}
