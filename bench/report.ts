// The result as Markdown: one table per run (one database), with each figure's ratio to
// its ceiling, the target and whether it is met, then how the run was made.
import type { Figures } from './figures.ts';

export interface Row {
  label: string;
  figures?: Figures;
  /** The figure's requests/s as a share of a ceiling measured in the same run. */
  ratio?: { value: number; of: string };
  target?: string;
  met?: boolean;
  /** Why the row has no figures, or what else was checked. */
  note?: string;
}

export interface RunInfo {
  title: string;
  date: Date;
  /** What the latency columns cover, after "latencies of". */
  latencies: string;
  rows: Row[];
  /** Lines under "Start-up". */
  startup: string[];
  /** Lines under "How this run was made". */
  setup: string[];
  notes: string[];
}

const dash = '—';

function number(value: number | undefined, digits: number): string {
  if (value === undefined || !Number.isFinite(value)) return dash;
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function ratio(row: Row): string {
  if (!row.ratio || !Number.isFinite(row.ratio.value)) return dash;
  return `${Math.round(row.ratio.value * 100)} % of ${row.ratio.of}`;
}

function verdict(row: Row): string {
  if (row.met === undefined) return dash;
  return row.met ? '✓' : '✗';
}

export function renderReport(run: RunInfo): string {
  const lines = [
    `# ${run.title}`,
    '',
    `${run.date.toISOString().replace('T', ' ').slice(0, 16)} UTC. Medians of the repeats; latencies of ${run.latencies}.`,
    '',
    '| Workload | req/s | vs ceiling | p50 ms | p99 ms | server CPU ms/req | PostgreSQL CPU ms/req | load generator CPU | peak RSS MB | target | met |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|---|:-:|',
  ];
  for (const row of run.rows) {
    const f = row.figures;
    const label = row.note && !f ? `${row.label} (${row.note})` : row.label;
    lines.push(
      `| ${[
        label,
        number(f?.requestsPerSecond, 0),
        ratio(row),
        number(f?.p50, 2),
        number(f?.p99, 2),
        number(f?.cpuMsPerRequest, 3),
        number(f?.databaseCpuMsPerRequest, 3),
        f ? `${Math.round(f.loadCpuShare * 100)} %` : dash,
        number(f?.peakRssMb, 0),
        row.target ?? dash,
        verdict(row),
      ].join(' | ')} |`,
    );
  }
  lines.push('', '## Start-up', '', ...run.startup.map((l) => `- ${l}`));
  const checks = run.rows.filter((r) => r.note && r.figures).map((r) => `${r.label}: ${r.note}`);
  const failures = run.rows
    .filter((r) => r.figures && r.figures.failures > 0)
    .map((r) => `${r.label}: ${r.figures!.failures.toLocaleString('en-US')} non-2xx responses or connection errors`);
  const busyLoad = run.rows
    .filter((r) => r.figures && r.figures.loadCpuShare > 0.9)
    .map(
      (r) =>
        `${r.label}: the load generator used ${Math.round(r.figures!.loadCpuShare * 100)} % of its CPU, so it may be what limits this figure`,
    );
  const notes = [...checks, ...failures, ...busyLoad, ...run.notes];
  if (notes.length > 0) lines.push('', '## Notes', '', ...notes.map((l) => `- ${l}`));
  lines.push('', '## How this run was made', '', ...run.setup.map((l) => `- ${l}`), '');
  return lines.join('\n');
}
