// What a failed start says: the error's own sentence, and for the mistakes a person setting
// the service up makes first, what to do about it.
import { codeOf, messageOf } from './db/driver-errors.ts';

/** PostgreSQL's SQLSTATE for a database that does not exist (invalid_catalog_name). */
const NO_SUCH_DATABASE = '3D000';

export function startupFailureMessage(error: unknown, databaseUrl: string | undefined): string {
  const reason = messageOf(error) || String(error);
  const lines = [`Start-up failed: ${reason}`];
  if (codeOf(error) === NO_SUCH_DATABASE && databaseUrl && /^postgres(ql)?:\/\//.test(databaseUrl)) {
    const url = new URL(databaseUrl);
    const name = decodeURIComponent(url.pathname.slice(1));
    const server = `-h ${url.hostname}${url.port ? ` -p ${url.port}` : ''}${url.username ? ` -U ${decodeURIComponent(url.username)}` : ''}`;
    lines.push(`Create it first, e.g. \`createdb ${server} ${name}\`; the service then makes its tables itself.`);
  }
  if (codeOf(error) === 'EADDRINUSE') {
    lines.push('Another program listens on that port: stop it, or choose another port with PORT (or METRICS_PORT).');
  }
  return lines.join('\n');
}
