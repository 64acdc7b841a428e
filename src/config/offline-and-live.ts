// The change log and live streams (docs/offline-and-live.md): how long changes are kept, how
// many streams may be open, and how often a stream speaks.
import { integer, positiveDuration } from './parsers.ts';
import { ConfigError, type Parser, type Settings, type Values, type Variables } from './variable.ts';

/** A comment line at least every 30 s: clients and proxies count on it. */
const heartbeat: Parser<number> = {
  parse(value, name) {
    const ms = positiveDuration.parse(value, name);
    if (ms > 30_000) throw new ConfigError(`${name} must be at most 30s: clients and proxies count on a line at least that often`);
    return ms;
  },
  placeholder: 1,
};

export const OFFLINE_AND_LIVE = {
  /** How long the change log keeps a change. */
  changesRetentionMs: {
    name: 'CHANGES_RETENTION',
    default: '30d',
    parser: positiveDuration,
    doc: 'how long the change log keeps a change; an older cursor answers 410',
  },
  /** Live streams open at once per account, on one instance. */
  eventStreamsPerAccount: {
    name: 'EVENT_STREAMS_PER_ACCOUNT',
    default: '10',
    parser: integer(1),
    doc: 'live streams open at once per account on one instance',
  },
  /** Live streams open at once per client IP (an IPv6 client by its /64), on one instance. */
  eventStreamsPerIp: {
    name: 'EVENT_STREAMS_PER_IP',
    default: '50',
    parser: integer(1),
    doc: 'live streams open at once per client address on one instance',
  },
  /** How often a live stream sends a comment line and checks itself. */
  eventHeartbeatMs: { name: 'EVENT_HEARTBEAT', default: '25s', parser: heartbeat, doc: 'how often a live stream sends a comment line' },
} satisfies Variables;

export type OfflineAndLiveConfig = Values<typeof OFFLINE_AND_LIVE>;

export function loadOfflineAndLive(settings: Settings): OfflineAndLiveConfig {
  return settings.readAll(OFFLINE_AND_LIVE);
}
