// Runs the load generator — wrk (wrk-load.ts), or autocannon (load.ts) with --generator
// autocannon — as a pinned child process and, while its load runs, reads the server's CPU
// time (and PostgreSQL's, when it is watched), so that CPU per request covers exactly the
// measured stretch.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { LoadResult, LoadSpec } from './load-types.ts';
import type { Pinning } from './pinning.ts';
import { ROOT, type MeasuredProcess } from './processes.ts';
import { runWrk } from './wrk-load.ts';

export interface Measurement extends LoadResult {
  /** Server CPU milliseconds per response, when a server was given to watch. */
  cpuMsPerRequest: number | undefined;
  /** PostgreSQL's CPU milliseconds per response, when the server watched uses PostgreSQL. */
  databaseCpuMsPerRequest: number | undefined;
}

let specCounter = 0;

export async function runLoad(pinning: Pinning, spec: LoadSpec, workDir: string, server?: MeasuredProcess): Promise<Measurement> {
  // The server's (and its database's) CPU, read as the load starts and as it ends.
  const read = () => ({ service: server?.cpuSeconds(), database: server?.databaseCpuSeconds?.() });
  let atStart: ReturnType<typeof read> | undefined;
  let atEnd: ReturnType<typeof read> | undefined;
  const run = spec.generator === 'wrk' ? runWrk : runAutocannon;
  const result = await run(
    pinning,
    spec,
    workDir,
    () => {
      atStart = read();
    },
    () => {
      atEnd = read();
    },
  );
  return {
    ...result,
    cpuMsPerRequest: perResponse(atStart?.service, atEnd?.service, result),
    databaseCpuMsPerRequest: perResponse(atStart?.database, atEnd?.database, result),
  };
}

/** autocannon in a child process (bench/load.ts), which says when its load starts and ends. */
async function runAutocannon(
  pinning: Pinning,
  spec: LoadSpec,
  workDir: string,
  onStart: () => void,
  onEnd: () => void,
): Promise<LoadResult> {
  const specFile = join(workDir, `load-${process.pid}-${specCounter++}.json`);
  writeFileSync(specFile, JSON.stringify(spec));
  const command = [...pinning.load, process.execPath, join(ROOT, 'bench/load.ts'), specFile];
  const child = spawn(command[0]!, command.slice(1), { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });

  let result: LoadResult | undefined;
  let failure: string | undefined;
  for await (const line of createInterface({ input: child.stdout! })) {
    if (!line.startsWith('{')) continue;
    const message = JSON.parse(line) as { event: 'start' } | { event: 'done'; result: LoadResult } | { event: 'error'; message: string };
    if (message.event === 'start') onStart();
    else if (message.event === 'done') {
      onEnd();
      result = message.result;
    } else failure = message.message;
  }
  const code = child.exitCode ?? (await new Promise<number | null>((resolve) => child.once('exit', resolve)));
  if (!result) throw new Error(`the load generator failed (code ${code}): ${failure ?? 'no result'}`);
  return result;
}

/** CPU milliseconds per response over a run. */
function perResponse(start: number | undefined, end: number | undefined, result: LoadResult): number | undefined {
  const responses = result.ok + result.other;
  return start !== undefined && end !== undefined && responses > 0 ? ((end - start) * 1000) / responses : undefined;
}
