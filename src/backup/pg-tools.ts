// PostgreSQL's own client tools, pg_dump and pg_restore, run with the connection DATABASE_URL
// names. The password goes to them in PGPASSWORD, not on the command line, where every user
// of the machine could read it in the process list.
import { spawn } from 'node:child_process';

/** The arguments and environment that reach the database `url` names without a password in argv. */
function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { dbname: parsed.toString(), env: { ...process.env, ...(password && { PGPASSWORD: password }) } };
}

/** Runs `tool` on the database `url` names; fails with its error output, or says it is not installed. */
export function runPgTool(tool: 'pg_dump' | 'pg_restore', url: string, args: string[]): Promise<void> {
  const { dbname, env } = connection(url);
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${dbname}`], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      if (errors.length < 8192) errors += text;
    });
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error(
              `${tool} is not installed (or not on PATH): install PostgreSQL's client tools, of the server's major version or newer`,
            )
          : error,
      );
    });
    child.once('close', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${tool} failed (${signal ?? `exit ${code}`}): ${errors.trim() || 'no message'}`));
    });
  });
}
