import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';

/** Koa's request callback as the plain listener `http.createServer` expects (Koa handles its own errors). */
export function nodeHandler(app: Koa): (request: IncomingMessage, response: ServerResponse) => void {
  const handle = app.callback();
  return (request, response) => {
    void handle(request, response);
  };
}
