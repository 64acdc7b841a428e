// What a person starting the service needs to know first (docs/web-client.md's first five minutes):
// where the web client, the API and its documentation are, which database, where e-mail and
// media go, and where metrics are. Secrets in URLs (database and SMTP passwords) are never printed.
import { resolve } from 'node:path';
import type { Config } from './config.ts';
import { webClientBuilt } from './http/web-client.ts';
import { devInboxEnabled } from './mail/dev-inbox.ts';

function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

export interface StartupSummary {
  web: string;
  api: string;
  docs: string;
  database: string;
  mail: string;
  media: string;
  metrics?: string;
}

export function startupSummary(config: Config, metricsAddress?: string): StartupSummary {
  const media = config.mediaStorage;
  return {
    web: webClientBuilt(config.webClientDir)
      ? `${config.publicUrl}/ (files from ${config.webClientDir})`
      : `not built (no ${config.webClientDir}/index.html): run npm run build`,
    api: config.publicUrl,
    docs: `${config.publicUrl}/docs`,
    database: config.databaseUrl.startsWith('sqlite:')
      ? `SQLite file ${resolve(config.databaseUrl.slice('sqlite:'.length))}`
      : `PostgreSQL ${withoutPassword(config.databaseUrl)}`,
    mail: config.smtpUrl
      ? `SMTP ${withoutPassword(config.smtpUrl)}`
      : `written as .eml files to ${resolve(config.mailDir)} (each one's link and key are logged)${
          devInboxEnabled(config) ? `; read them at ${config.publicUrl}/dev/mail` : ''
        }`,
    media:
      media.kind === 'fs'
        ? `files under ${resolve(media.directory)}`
        : `S3 bucket ${media.bucket}${media.prefix ? `/${media.prefix}` : ''}${media.endpoint ? ` at ${media.endpoint}` : ''}`,
    ...(metricsAddress === undefined ? {} : { metrics: `${metricsAddress}/metrics` }),
  };
}

/**
 * The start-up line. The addresses a person opens come first: PUBLIC_URL's (by default
 * http://localhost:8000, where passkeys work: WebAuthn takes no IP address), and the one the
 * service listens on (http://127.0.0.1:8000) last.
 */
export function startupMessage(config: Config, listeningOn: string): string {
  return `Profile Service: the web client is at ${config.publicUrl}/, the API documentation at ${config.publicUrl}/docs (listening on ${listeningOn})`;
}
