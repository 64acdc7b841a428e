// The signed file URL's parts (media-file-routes.ts).
import { Type } from 'typebox';

export const FileParams = Type.Object({ storage_key: Type.String({ description: 'The stored file’s generated name' }) });

export const FileQuery = Type.Object({
  expires: Type.Optional(Type.String({ description: 'Expiry time, seconds since the epoch' })),
  signature: Type.Optional(Type.String({ description: 'HMAC-SHA256 of the storage key and expiry' })),
});

export const FileResponse = Type.String({ format: 'binary', description: 'The stored bytes, with the stored content type' });
