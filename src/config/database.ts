// Which database, and how it is used: SQLite's durability, PostgreSQL's pool and timeouts.
import { integer, positiveDuration } from './parsers.ts';
import { ConfigError, type Parser, type Settings, type Values, type Variables } from './variable.ts';

const databaseUrl: Parser<string> = {
  parse(value, name) {
    if (!/^sqlite:.+/.test(value) && !/^postgres(ql)?:\/\//.test(value))
      throw new ConfigError(`${name} must be "sqlite:<path>" or "postgres://…", got "${value}"`);
    return value;
  },
  placeholder: '',
};

const sqliteSynchronous: Parser<'FULL' | 'NORMAL'> = {
  parse(value, name) {
    const upper = value.toUpperCase();
    if (upper !== 'FULL' && upper !== 'NORMAL') throw new ConfigError(`${name} must be FULL or NORMAL, got "${upper}"`);
    return upper;
  },
  placeholder: 'FULL',
};

export const DATABASE = {
  databaseUrl: {
    name: 'DATABASE_URL',
    default: 'sqlite:data/profile-service.db',
    parser: databaseUrl,
    doc: '`sqlite:<path>` or `postgres://…`',
  },
  sqliteSynchronous: {
    name: 'SQLITE_SYNCHRONOUS',
    default: 'FULL',
    parser: sqliteSynchronous,
    doc: 'SQLite: FULL syncs each commit to disk before it is acknowledged; NORMAL may lose the last on power loss',
  },
} satisfies Variables;

/** PostgreSQL: connections kept, and how long a connection (or a free one) and a query may take. */
export const DATABASE_POOL = {
  poolSize: {
    name: 'DATABASE_POOL_SIZE',
    default: '10',
    parser: integer(1, 1000),
    doc: "PostgreSQL: connections each of an instance's two pools keeps at most (twice this in all)",
  },
  connectTimeoutMs: {
    name: 'DATABASE_CONNECT_TIMEOUT',
    default: '5s',
    parser: positiveDuration,
    doc: 'PostgreSQL: longest wait for a free pooled connection or a new one',
  },
  queryTimeoutMs: {
    name: 'DATABASE_QUERY_TIMEOUT',
    default: '10s',
    parser: positiveDuration,
    doc: "PostgreSQL: the server's statement_timeout; the service gives up 1 s later",
  },
} satisfies Variables;

export type DatabaseConfig = Values<typeof DATABASE> & { database: Values<typeof DATABASE_POOL> };

export function loadDatabase(settings: Settings): DatabaseConfig {
  return { ...settings.readAll(DATABASE), database: settings.readAll(DATABASE_POOL) };
}
