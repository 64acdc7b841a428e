// On close, Node's server waits for every connection to end, and closes the idle ones itself:
// but a connection that has not sent a byte yet (a browser's speculative preconnect, an HTTP
// client's spare socket) counts as waiting for its request, so the shutdown would wait out its
// timeout (a minute). Such connections carry nothing: they are ended at once.
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
  };
  app.addHook('preClose', (done) => {
    endUnused();
    // And those that connect until the server has stopped listening, a moment later.
    const again = setInterval(endUnused, 50).unref();
    app.server.once('close', () => clearInterval(again));
    done();
  });
}
