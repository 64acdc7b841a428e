// On close, Node's server waits for every connection to end, and Fastify closes those idle at
// that moment. Two kinds would still hold the shutdown for their timeout (a minute or more): a
// connection that has not sent a byte yet (a browser's speculative preconnect, an HTTP client's
// spare socket), which counts as waiting for its request; and a keep-alive connection whose
// answer was still going out when the close began. Both carry nothing once their answer is
// sent, so until the server has stopped, they are ended as soon as they are idle.
import type { Socket } from 'node:net';
import type { App } from './types.ts';

export function closeUnusedConnectionsOnClose(app: App): void {
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const endUnused = () => {
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
    app.server.closeIdleConnections();
  };
  app.addHook('preClose', (done) => {
    endUnused();
    // And those that connect, or fall idle, until the server has stopped.
    const again = setInterval(endUnused, 50).unref();
    app.server.once('close', () => clearInterval(again));
    done();
  });
}
