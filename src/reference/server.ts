import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { API_PREFIX, ReferenceService, type ReferenceServiceOptions } from './service.ts';

/** Anything that answers HTTP requests: the reference service or a subclass of it. */
export interface RequestHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void> | void;
}

/** Where to listen; defaults to 127.0.0.1 and a free port. */
export interface ListenOptions {
  host?: string;
  port?: number;
  /** Serve https with this key and certificate (PEM) instead of plain http: for testing a private CA. */
  tls?: { key: string; cert: string };
}

/** A listening server. */
export interface RunningServer {
  /** Origin, e.g. `http://127.0.0.1:54321`. */
  url: string;
  /** `url` plus the API prefix, what the suite takes as its base URL. */
  baseUrl: string;
  port: number;
  /** Stops listening and closes every connection, keep-alive ones included. */
  close(): Promise<void>;
}

/** A running reference server, with a token of each of two different accounts. */
export interface RunningReferenceServer extends RunningServer {
  tokens: [string, string];
  service: ReferenceService;
}

/** Serves `service` over HTTP until `close()` is called. */
export async function startServer(service: RequestHandler, opts: ListenOptions = {}): Promise<RunningServer> {
  const { host = '127.0.0.1', port = 0, tls } = opts;
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    // The reference service never rejects, but a faulty subclass may; a 500 keeps the
    // process alive and the client answered.
    Promise.resolve()
      .then(() => service.handle(req, res))
      .catch(() => {
        if (res.headersSent) res.destroy();
        else res.writeHead(500).end();
      });
  };
  const server = tls ? createHttpsServer(tls, listener) : createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as AddressInfo).port;
  const url = `${tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  return {
    url,
    baseUrl: `${url}${API_PREFIX}`,
    port: actualPort,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Without this, close() waits for clients' idle keep-alive sockets to time out.
        server.closeAllConnections();
      }),
  };
}

/** Starts a reference service with the given options on a local port. */
export async function startReferenceServer(
  options: ReferenceServiceOptions = {},
  listen: ListenOptions = {},
): Promise<RunningReferenceServer> {
  const service = new ReferenceService(options);
  const tokens = Object.entries(service.tokens);
  const first = tokens[0];
  const second = tokens.find(([, account]) => account !== first?.[1]);
  if (first === undefined || second === undefined) {
    throw new RangeError('the reference server needs tokens of two different accounts');
  }
  const running = await startServer(service, listen);
  return { ...running, tokens: [first[0], second[0]], service };
}
