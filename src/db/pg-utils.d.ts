// pg's own conversion of a query parameter (arrays to array literals, dates, buffers, JSON),
// which @types/pg does not declare.
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}
