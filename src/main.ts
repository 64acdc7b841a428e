// `npm start`'s entry point. It checks the Node.js version before anything else is loaded:
// on an older Node, loading the service's native modules crashes the process without a word
// (Node 20 ended with a segmentation fault). The service itself is in serve.ts, imported only
// once the check has passed. Started from a build, it marks that build as in use, so that
// `npm run build` keeps it (builds-in-use.ts).
import { fileURLToPath } from 'node:url';
import { holdOwnBuild } from './builds-in-use.ts';

const MINIMUM_NODE_MAJOR = 22;

const major = Number(process.versions.node.split('.')[0]);
if (major < MINIMUM_NODE_MAJOR) {
  console.error(
    `Profile Service needs Node.js ${MINIMUM_NODE_MAJOR} or newer; this is Node.js ${process.versions.node}. ` +
      'Run it through npm (npm start), which uses the Node.js the project pins, or install a newer Node.js.',
  );
  process.exit(1);
}
holdOwnBuild(fileURLToPath(import.meta.url));

await import('./serve.ts');
