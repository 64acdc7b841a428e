// Which files the gallery accepts (docs/app-data.md): images, PDF, audio and video, judged from
// the bytes with file-type. The client's file name and declared content type are ignored.

/** How much of the start of a file type detection looks at (file-type's own sample size). */
export const SNIFF_BYTES = 4100;

export interface MediaType {
  /** e.g. "image/png" */
  mime: string;
  /** e.g. "png"; becomes the stored file's extension */
  extension: string;
}

function isAccepted(mime: string): boolean {
  // SVG is XML that can carry scripts; file-type does not detect it today, and it must stay out.
  if (mime.startsWith('image/svg')) return false;
  return /^(image|audio|video)\//.test(mime) || mime === 'application/pdf';
}

/** The accepted media type of a file that starts with `head`, or undefined. */
export async function detectMediaType(head: Uint8Array): Promise<MediaType | undefined> {
  // Loaded on first upload: most requests never need it.
  const { fileTypeFromBuffer } = await import('file-type');
  const detected = await fileTypeFromBuffer(head);
  if (!detected || !isAccepted(detected.mime)) return undefined;
  return { mime: detected.mime, extension: detected.ext };
}
