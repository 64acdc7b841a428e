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

// V8 learns the shape of the objects process.nextTick queues from its first calls, and gives up
// on the first shape that differs: from then on every tick object is built by the runtime, not
// by the optimised code. When loading and starting the service made the first calls, that
// happened before the first request (seen with %DebugPrint of nextTick's feedback), and it cost
// every request about 4 % of its CPU (Node makes seven ticks per request; perf showed the
// runtime calls). Ticks that are all alike, queued before anything else runs, settle it.
await new Promise<void>((resolve) => {
  let left = 5_000;
  const tick = () => (--left > 0 ? process.nextTick(tick) : resolve());
  tick();
});

await import('./serve.ts');
