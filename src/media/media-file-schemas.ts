// The signed file URL's parts (media-file-routes.ts).
import { Type } from 'typebox';

export const FileParams = Type.Object({ storage_key: Type.String({ description: 'The stored file’s generated name' }) });

export const FileQuery = Type.Object({
  expires: Type.Optional(Type.String({ description: 'Expiry time, seconds since the epoch' })),
  accessor: Type.Optional(Type.String({ description: 'In a URL handed to an accessor: their accessor id (signed too)' })),
  signature: Type.Optional(Type.String({ description: 'HMAC-SHA256 of the storage key, expiry and accessor' })),
});

export const FileResponse = Type.String({ format: 'binary', description: 'The stored bytes, with the stored content type' });
