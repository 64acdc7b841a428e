// The service itself (started by main.ts once the Node.js version is checked): read the
// configuration, migrate, serve until SIGTERM/SIGINT.
import { loadConfigOrExit } from './config.ts';
import { startServer } from './server.ts';
import { startupFailureMessage } from './startup-failure.ts';
import { startupMessage, startupSummary } from './startup-summary.ts';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const server = await startServer(config);
  // Where everything is, for the person who just started it (pretty logs print each on a line).
  server.ctx.log.info(
    { ...startupSummary(config, server.metricsAddress), address: server.address },
    startupMessage(config, server.address),
  );

  const shutdown = (signal: string) => {
    server.ctx.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close().then(
      () => {
        server.ctx.log.info('stopped: every request answered, the database closed');
        process.exit(0);
      },
      (error: unknown) => {
        server.ctx.log.error({ err: error }, 'stopped with an error');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(startupFailureMessage(error, process.env.DATABASE_URL));
  process.exit(1);
});
