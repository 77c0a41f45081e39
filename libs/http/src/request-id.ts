import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface RequestIdState {
  requestId: string;
}

/** Every response carries X-Request-ID: a valid incoming one is echoed, otherwise one is made. */
export function requestId(): Middleware<RequestIdState> {
  return async (ctx, next) => {
    const incoming = ctx.get('X-Request-ID');
    ctx.state.requestId = VALID_REQUEST_ID.test(incoming) ? incoming : `req_${randomUUID()}`;
    ctx.set('X-Request-ID', ctx.state.requestId);
    await next();
  };
}
