// What one instance spends on its answers: memory for cached renderings, exports at once, and
// the folder large answers are written to before they are sent.
import { tmpdir } from 'node:os';
import { integer, size, text } from './parsers.ts';
import type { Settings, Variables } from './variable.ts';

export interface CapacityConfig {
  renderCacheBytes: number;
  /** Data exports running at once on this instance; beyond, 503. */
  exportsAtOnce: number;
  /** Where large answers (an export's account.json, the largest views) are written before they are sent. */
  spoolDir: string;
}

export const CAPACITY = {
  renderCacheBytes: {
    name: 'RENDER_CACHE_BYTES',
    default: '32MiB',
    parser: size,
    doc: 'memory for cached renderings of profile details and topic item lists; 0: none',
  },
  exportsAtOnce: { name: 'EXPORTS_AT_ONCE', default: '2', parser: integer(1), doc: 'data exports running at once on an instance' },
  spoolDir: {
    name: 'SPOOL_DIR',
    parser: text,
    doc: "where large answers are written before they are sent; unset: the system's temporary folder",
  },
} satisfies Variables;

export function loadCapacity(settings: Settings): CapacityConfig {
  return {
    renderCacheBytes: settings.read(CAPACITY.renderCacheBytes),
    exportsAtOnce: settings.read(CAPACITY.exportsAtOnce),
    spoolDir: settings.read(CAPACITY.spoolDir, tmpdir()),
  };
}
