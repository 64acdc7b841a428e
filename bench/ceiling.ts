// The ceiling: a bare node:http server that answers every request with the same bytes and
// content type as one of the service's responses. Run as its own process, pinned like the
// service: `node bench/ceiling.ts <body-file> <content-type>`; prints {"port": n} when ready.
// What the service reaches against it is the share of the machine's HTTP capacity it keeps.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.argv[2]!);
const contentType = process.argv[3]!;

const server = createServer((request, response) => {
  // Read (and drop) any request body before answering, as the service does.
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': contentType, 'content-length': body.length });
    response.end(body);
  });
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
