// A one-line progress bar on stderr: redrawn in place on a terminal, one line per tenth
// otherwise (so logs of a piped run stay short).
export interface ProgressBar {
  update(done: number): void;
  finish(): void;
}

const WIDTH = 30;

function formatSeconds(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  return seconds >= 90 ? `${Math.round(seconds / 60)} min` : `${Math.round(seconds)} s`;
}

export function createProgressBar(total: number, unit: string, stream: NodeJS.WriteStream = process.stderr): ProgressBar {
  const started = performance.now();
  let lastDraw = 0;
  let lastTenth = -1;
  let lastLine = '';

  const line = (done: number): string => {
    const fraction = total === 0 ? 1 : done / total;
    const filled = Math.round(fraction * WIDTH);
    const seconds = (performance.now() - started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = rate > 0 ? (total - done) / rate : Infinity;
    return (
      `[${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}] ${Math.floor(fraction * 100)}% ` +
      `${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${unit}, ` +
      `${Math.round(rate).toLocaleString('en-US')}/s, ${done < total ? `${formatSeconds(eta)} left` : `${formatSeconds(seconds)} in all`}`
    );
  };

  return {
    update(done) {
      if (stream.isTTY) {
        const now = performance.now();
        if (now - lastDraw < 100 && done < total) return;
        lastDraw = now;
        lastLine = line(done);
        stream.write(`\r${lastLine}\x1b[K`);
        return;
      }
      const tenth = total === 0 ? 10 : Math.floor((done / total) * 10);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        stream.write(`${line(done)}\n`);
      }
    },
    finish() {
      if (stream.isTTY && lastLine) stream.write('\n');
    },
  };
}
