// Upload bodies for a multipart/form-data operation: forms with `name` and `file` parts of
// every sort (real images, empty files, text, odd names and file names, wrong field names,
// repeated parts), and hand-written multipart bodies FormData cannot make.
import fc from 'fast-check';
import { multipartBody, pdf, png } from '../media/media-fixtures.ts';
import { cleanText, nastyString } from './strings.ts';

/** A real 1×1 JPEG (baseline, greyscale). */
export const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

export type FilePart = {
  field: string;
  bytes: 'png' | 'jpeg' | 'pdf' | 'empty' | 'text' | 'random';
  random?: number[];
  filename: string;
  type: string;
};
export type TextPart = { field: string; value: string };

export interface FormSpec {
  kind: 'form';
  parts: Array<FilePart | TextPart>;
}

export interface HandWrittenSpec {
  kind: 'handwritten';
  /** Which broken shape (see handWrittenBody). */
  shape: number;
  name: string;
}

export type MultipartSpec = FormSpec | HandWrittenSpec;

const filename = fc.oneof(
  fc.constantFrom(
    'photo.png',
    'photo.jpg',
    'a',
    '',
    '../../etc/passwd',
    'x'.repeat(300),
    'photo\u0000.png',
    'фото.png',
    '😀.png',
    'a"b.png',
    'a\r\nb.png',
    '\u202egnp.exe',
  ),
  fc.string({ maxLength: 12 }),
);

const claimedType = fc.constantFrom(
  'image/png',
  'image/jpeg',
  'application/octet-stream',
  'text/plain',
  'application/pdf',
  'image/svg+xml',
  'x/x',
);

const filePart = (field: fc.Arbitrary<string>): fc.Arbitrary<FilePart> =>
  fc.record({
    field,
    bytes: fc.constantFrom('png', 'jpeg', 'pdf', 'empty', 'text', 'random'),
    random: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 64 }),
    filename,
    type: claimedType,
  });

const validName = cleanText(1, 255);

/** A form as the API expects it: a name and a real image. */
export const validForm: fc.Arbitrary<FormSpec> = fc
  .tuple(validName, fc.constantFrom<'png' | 'jpeg'>('png', 'jpeg'), filename)
  .map(([name, bytes, file]) => ({
    kind: 'form',
    parts: [
      { field: 'name', value: name },
      { field: 'file', bytes, filename: file, type: 'application/octet-stream' },
    ],
  }));

const oddForm: fc.Arbitrary<FormSpec> = fc
  .array(
    fc.oneof(
      fc.record({ field: fc.constantFrom('name', 'name', 'Name', 'file', 'nam', ''), value: fc.oneof(validName, nastyString) }),
      filePart(fc.constantFrom('file', 'file', 'files', 'File', 'name', 'upload')),
    ),
    { maxLength: 4 },
  )
  .map((parts) => ({ kind: 'form', parts }));

const handWritten: fc.Arbitrary<HandWrittenSpec> = fc.record({
  kind: fc.constant('handwritten' as const),
  shape: fc.nat({ max: 5 }),
  name: fc.oneof(validName, nastyString),
});

export const multipartSpec: fc.Arbitrary<MultipartSpec> = fc.oneof(
  { arbitrary: validForm, weight: 3 },
  { arbitrary: oddForm, weight: 4 },
  { arbitrary: handWritten, weight: 2 },
);

function fileBytes(part: FilePart): Buffer {
  switch (part.bytes) {
    case 'png':
      return png();
    case 'jpeg':
      return JPEG;
    case 'pdf':
      return pdf();
    case 'empty':
      return Buffer.alloc(0);
    case 'text':
      return Buffer.from('just some text\n');
    case 'random':
      return Buffer.from(part.random ?? []);
  }
}

const BOUNDARY = 'fuzz-boundary-7MA4YWxkTrZu0gW';

/** The body and its content type. */
export function multipartRequest(spec: MultipartSpec): { body: FormData | Buffer; contentType: string | undefined } {
  if (spec.kind === 'handwritten') return { body: handWrittenBody(spec), contentType: `multipart/form-data; boundary=${BOUNDARY}` };
  const form = new FormData();
  for (const part of spec.parts) {
    if ('value' in part) form.append(part.field, part.value);
    else form.append(part.field, new Blob([new Uint8Array(fileBytes(part))], { type: part.type }), part.filename);
  }
  return { body: form, contentType: undefined };
}

function handWrittenBody(spec: HandWrittenSpec): Buffer {
  const name = { headers: ['Content-Disposition: form-data; name="name"'], body: spec.name };
  const file = { headers: ['Content-Disposition: form-data; name="file"; filename="a.png"', 'Content-Type: image/png'], body: png() };
  switch (spec.shape) {
    case 0:
      return multipartBody(BOUNDARY, [name, file], false); // no closing boundary
    case 1:
      return multipartBody('another-boundary', [name, file]); // boundary not the announced one
    case 2:
      return multipartBody(BOUNDARY, [{ headers: ['Content-Disposition: form-data'], body: 'no name' }, file]);
    case 3:
      return multipartBody(BOUNDARY, [name, { headers: ['Content-Type: image/png'], body: png() }]); // no disposition
    case 4:
      return multipartBody(BOUNDARY, [name, name, file, file]);
    default:
      return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${spec.name}`); // cut short
  }
}
