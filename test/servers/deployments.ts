/**
 * Id schemes and deployments a conformant backend may come with, that a client must meet as they
 * are (the spec leaves the id format open): standard base64 ids, which hold "/" and "+"; ids in
 * many scripts that hold a literal percent escape, "?", "#", ";", white space and "\"; Apache
 * httpd in front, which passes an encoded "/" through with `AllowEncodedSlashes NoDecode` and
 * answers every request target holding one with its own HTML 404 by default; and one worker
 * thread that serves one keep-alive connection at a time.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestHandler } from '../../src/reference/server.ts';
import { InspectableStore } from './support.ts';

/**
 * Standard base64 ids (RFC 4648 §4, the alphabet with "+" and "/") of 12 random bytes: 16
 * characters, no padding. Every id holds both a "/" (the 4th character) and a "+" (the 8th), so
 * that every request for a widget meets what a router does with them.
 */
export class Base64Store extends InspectableStore {
  protected override randomId(): string {
    const bytes = randomBytes(12);
    // The low six bits of bytes 2 and 5 are the 4th and 8th characters: 63 is "/", 62 is "+".
    bytes[2] = (bytes[2]! & 0xc0) | 63;
    bytes[5] = (bytes[5]! & 0xc0) | 62;
    return bytes.toString('base64');
  }
}

/**
 * Ids from a counter written in base62 (`0-9a-zA-Z`, from 10 on: "a", "b", …, "A", …, "10"), as
 * short-link services issue them: case-sensitive, so one run is given both "a" and "A", which a
 * router that folded case would take for one id. Each is its own widget here.
 */
export class Base62CounterStore extends InspectableStore {
  private next = 10;
  protected override randomId(): string {
    const digits = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
    let n = this.next++;
    let id = '';
    do {
      id = digits[n % 62]! + id;
      n = Math.floor(n / 62);
    } while (n > 0);
    return id;
  }
}

/**
 * Ids a backend keyed by free text might issue: letters of several scripts, a literal percent
 * escape ("%41", which is not "A"), "?", "#", ";", a space and a backslash, then a random part.
 * None has a "." or empty segment under any decoding: each is one resource.
 */
export class FreeTextIdStore extends InspectableStore {
  protected override randomId(): string {
    return `Ωmega ü-50%41?#;\\${randomBytes(6).toString('hex')}`;
  }
}

/** Apache httpd's own answer to a request target holding an encoded "/" under `AllowEncodedSlashes Off`, its default. */
const APACHE_404 = '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n';

/**
 * Apache httpd as a reverse proxy in front of `backend`. With `AllowEncodedSlashes NoDecode`
 * (`ProxyPass … nocanon`) a request target reaches the backend as it was sent, "%2F" still
 * encoded, and the backend's router decodes the id's segment. With the default (`Off`), Apache
 * answers any request target holding "%2F" itself, with its HTML 404, before any backend sees it.
 */
export function apache(backend: RequestHandler, allowEncodedSlashes: 'NoDecode' | 'Off'): RequestHandler {
  return {
    handle(req: IncomingMessage, res: ServerResponse) {
      res.setHeader('Server', 'Apache/2.4.62 (Unix)');
      if (allowEncodedSlashes === 'Off' && /%2f/i.test(req.url ?? '')) {
        // Apache reads no body for a request it answers itself.
        req.resume();
        res.writeHead(404, { 'content-type': 'text/html; charset=iso-8859-1' }).end(APACHE_404);
        return;
      }
      return backend.handle(req, res);
    },
  };
}

/**
 * The backend run by one worker thread, as a small app served by a single-threaded server with
 * keep-alive (Python's http.server with HTTP/1.1, a one-worker WSGI or PHP server): it serves one
 * connection at a time, each request taking `workMs()` of its time, and a request on another
 * connection waits until the one being served closes (the client leaves it idle, or the server's
 * keep-alive timeout ends it). Connections wait in the order their first request came.
 */
export function oneWorker(backend: RequestHandler, workMs: () => number): RequestHandler {
  let serving: Socket | undefined;
  const waiting: Array<{ readonly socket: Socket; readonly go: () => void }> = [];
  /** The connection being served closed: the worker takes the next one that is still open (a closed one's request is let go, to find its answer unwanted). */
  const next = (): void => {
    serving = undefined;
    while (serving === undefined && waiting.length > 0) {
      const socket = waiting[0]!.socket;
      const mine = waiting.filter((w) => w.socket === socket);
      waiting.splice(0, waiting.length, ...waiting.filter((w) => w.socket !== socket));
      if (!socket.destroyed) take(socket);
      for (const w of mine) w.go();
    }
  };
  const take = (socket: Socket): void => {
    serving = socket;
    // A connection closed before the worker took it has no 'close' to come: the worker moves on at once.
    if (socket.destroyed) queueMicrotask(next);
    else socket.once('close', next);
  };
  return {
    async handle(req: IncomingMessage, res: ServerResponse) {
      const socket = req.socket;
      if (serving === undefined) take(socket);
      else if (serving !== socket) await new Promise<void>((go) => waiting.push({ socket, go }));
      // The worker's own time on the request (one at a time: a connection sends its next request after this one's answer).
      await sleep(workMs());
      if (res.destroyed) return;
      await backend.handle(req, res);
    },
  };
}
