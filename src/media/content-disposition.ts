// Content-Disposition for a downloaded file, named after the media resource (never after
// the uploader's original path) with the extension of its stored type.

/** Images, audio and video display in place; anything else (PDF) downloads. */
function dispositionType(contentType: string): 'inline' | 'attachment' {
  return /^(image|audio|video)\//.test(contentType) ? 'inline' : 'attachment';
}

function fileName(name: string, extension: string): string {
  // No path separators, control characters or quotes; a name that is only dots is no name.
  const cleaned = name
    .replace(/[\\/\p{Cc}"]+/gu, '_')
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .slice(0, 200);
  const base = cleaned === '' ? 'file' : cleaned;
  return base.toLowerCase().endsWith(`.${extension}`) ? base : `${base}.${extension}`;
}

/** RFC 6266: an ASCII `filename` for old clients and a UTF-8 `filename*` for the rest. */
export function contentDisposition(contentType: string, name: string, extension: string): string {
  const full = fileName(name, extension);
  const ascii = full.replace(/[^\x20-\x7e]/g, '_');
  const encoded = encodeURIComponent(full).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${dispositionType(contentType)}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
