// Constraint violations as SQLite (better-sqlite3) and PostgreSQL (pg) report them.

function codeOf(error: unknown): unknown {
  return error !== null && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
}

/** A unique index was violated; `index` is its name on PostgreSQL, `columns` its "table.column" on SQLite. */
export function isUniqueViolation(error: unknown, index: string, columns: string): boolean {
  const code = codeOf(error);
  const { constraint, message } = error as { constraint?: unknown; message?: unknown };
  if (code === '23505') return constraint === index;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE') return typeof message === 'string' && message.includes(columns);
  return false;
}

export function isForeignKeyViolation(error: unknown): boolean {
  const code = codeOf(error);
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
