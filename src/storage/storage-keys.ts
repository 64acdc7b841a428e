// Names of stored files. They are generated, never taken from the client: 128 random bits
// in hex and the extension of the type detected from the bytes ("3f9c…e1.png").
import { randomBytes } from 'node:crypto';

const STORAGE_KEY = /^[0-9a-f]{32}\.[a-z0-9]{1,10}$/;

const EXTENSION = /^[a-z0-9]{1,10}$/;

export function newStorageKey(extension: string): string {
  return `${randomBytes(16).toString('hex')}.${EXTENSION.test(extension) ? extension : 'bin'}`;
}

export function isStorageKey(value: string): boolean {
  return STORAGE_KEY.test(value);
}

export function extensionOf(storageKey: string): string {
  return storageKey.slice(storageKey.lastIndexOf('.') + 1);
}
