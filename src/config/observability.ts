// What the service tells its operators: logs, and Prometheus metrics on a listener of their own.
import { choice, integer, text } from './parsers.ts';
import { ConfigError, type Parser, type Settings, type Variables } from './variable.ts';

export interface ObservabilityConfig {
  logLevel: string;
  /** json: one JSON object a line; pretty: pino-pretty's coloured lines (development). */
  logFormat: 'json' | 'pretty';
  /** GET /metrics (Prometheus) on a listener of its own; undefined: METRICS_PORT unset, off. */
  metrics: { port: number; host: string } | undefined;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const logLevel: Parser<string> = {
  parse(value, name) {
    if (!LEVELS.includes(value)) throw new ConfigError(`${name} must be one of ${LEVELS.join(', ')}; got "${value}"`);
    return value;
  },
  placeholder: 'info',
};

export const OBSERVABILITY = {
  logLevel: { name: 'LOG_LEVEL', default: 'info', parser: logLevel, doc: `the least a log line must be: ${LEVELS.join(', ')}` },
  logFormat: {
    name: 'LOG_FORMAT',
    parser: choice(['json', 'pretty']),
    doc: 'json: one object a line; pretty: lines for people; unset: pretty on a terminal, else json',
  },
  metricsPort: { name: 'METRICS_PORT', parser: integer(0, 65535), doc: 'the port of GET /metrics (Prometheus); unset: no metrics' },
  metricsHost: { name: 'METRICS_HOST', default: '127.0.0.1', parser: text, doc: 'the address of the metrics listener' },
} satisfies Variables;

/** `port`: the API's, which the metrics listener must not share. */
export function loadObservability(settings: Settings, port: number): ObservabilityConfig {
  const metricsPort = settings.read(OBSERVABILITY.metricsPort);
  const metrics = metricsPort === undefined ? undefined : { port: metricsPort, host: settings.read(OBSERVABILITY.metricsHost) };
  if (metrics && metrics.port !== 0 && metrics.port === port) settings.problem(`METRICS_PORT must differ from PORT (${port})`);
  return {
    logLevel: settings.read(OBSERVABILITY.logLevel),
    logFormat: settings.read(OBSERVABILITY.logFormat, process.stdout.isTTY ? 'pretty' : 'json'),
    metrics,
  };
}
