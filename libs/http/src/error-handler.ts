import { isDomainError, type ErrorCode } from '@leadstream/domain';
import { isTransientError } from '@leadstream/runtime';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { conventionFor, errorBody, HTTP_STATUS } from './error-mapping';
import { pathMethods } from './route-methods';
import type { RequestIdState } from './request-id';

/** Errors raised by body parsing and other Koa plumbing carry an HTTP status but no code. */
interface HttpLikeError {
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
}

/** @hapi/bourne (under koa-body) throws this for a `__proto__` key anywhere in the body. */
function isForbiddenKey(error: unknown): boolean {
  return error instanceof SyntaxError && error.message === 'Object contains forbidden prototype property';
}

function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
    case 422:
      return 'VALIDATION_ERROR';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 503:
      return 'SERVICE_UNAVAILABLE';
    default:
      return 'INTERNAL_ERROR';
  }
}

const SAFE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'The request body is not valid JSON',
  PAYLOAD_TOO_LARGE: 'The request body is too large',
  UNSUPPORTED_MEDIA_TYPE: 'The request body must be application/json',
  NOT_FOUND: 'Resource not found',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  SERVICE_UNAVAILABLE: 'Service unavailable',
  INTERNAL_ERROR: 'Internal server error',
};

/**
 * Turns every thrown error into the error body of the path's convention (docs/api-conventions.md).
 * Domain errors keep their code and message; anything else becomes a generic message, so no
 * stack trace or internal text ever reaches a client. Unmatched routes get a clean 404, and a
 * known path called with another method a 405 in the same format.
 */
export function errorHandler(logger: Logger): Middleware<RequestIdState> {
  return async (ctx, next) => {
    let status: number;
    let code: ErrorCode;
    let message: string;
    let details: Array<{ field: string; message: string }> | undefined;
    let extra: Record<string, unknown> | undefined;
    try {
      await next();
      if (ctx.status === 501 && (ctx.body === undefined || ctx.body === null || typeof ctx.body === 'string')) {
        // A method no router implements (TRACE, CONNECT, ...): on a known path it is a 405 like
        // any other method the path does not take, on an unknown path a 404.
        const allowed = pathMethods(ctx.app, ctx.path);
        if (allowed.length > 0) ctx.set('Allow', allowed.join(', '));
        else ctx.remove('Allow');
        status = allowed.length > 0 ? 405 : 404;
        code = allowed.length > 0 ? 'METHOD_NOT_ALLOWED' : 'NOT_FOUND';
        message = SAFE_MESSAGES[code] ?? 'Request failed';
      } else if (ctx.status === 405 && (ctx.body === undefined || ctx.body === null || typeof ctx.body === 'string')) {
        // The routers' allowedMethods answer a known path with another method in plain text;
        // the answer keeps its status and Allow header and gets the path's error format.
        status = 405;
        code = 'METHOD_NOT_ALLOWED';
        message = SAFE_MESSAGES.METHOD_NOT_ALLOWED ?? 'Method not allowed';
      } else if (ctx.status !== 404 || ctx.body !== undefined) {
        return;
      } else {
        status = 404;
        code = 'NOT_FOUND';
        message = SAFE_MESSAGES.NOT_FOUND ?? 'Resource not found';
      }
    } catch (error) {
      if (isDomainError(error)) {
        code = error.code;
        status = HTTP_STATUS[code];
        message = error.message;
        details = error.details;
        extra = error.extra;
        // Rate-limited responses carry Retry-After (seconds) beside the body's retry_after.
        if (typeof extra?.['retry_after'] === 'number') ctx.set('Retry-After', String(extra['retry_after']));
      } else {
        const httpError = error as HttpLikeError;
        status = httpError.status ?? httpError.statusCode ?? 500;
        if (status < 400 || status > 599) status = 500;
        // An engine failure that passes by itself (a broker or database away, a full disk): the
        // request may succeed again later, so 503, not 500; nothing of it was acknowledged.
        if (status === 500 && isTransientError(error)) status = 503;
        code = codeForStatus(status);
        message = SAFE_MESSAGES[code] ?? 'Request failed';
        if (status === 400 && isForbiddenKey(error)) {
          // The JSON parser refuses `__proto__` keys (prototype poisoning): valid JSON, refused key.
          message = 'The request body has a key that is not allowed';
          details = [{ field: '__proto__', message: '__proto__ is not allowed as a key' }];
        }
        if (status >= 500)
          logger.error({ err: error, requestId: ctx.state.requestId, path: ctx.path }, 'unhandled error');
      }
    }
    ctx.status = status;
    ctx.body = errorBody(conventionFor(ctx.path), {
      status,
      code,
      message,
      details,
      requestId: ctx.state.requestId,
      extra,
    });
  };
}
