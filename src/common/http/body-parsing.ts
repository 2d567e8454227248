import type { IncomingMessage } from 'node:http';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { AppConfig } from '../../config/app-config';
import { formBodyOf, parseUrlencoded } from './request-body';

/**
 * The deepest nesting a JSON body may have. Weblate's bodies are at most three levels deep; V8 parses any
 * depth without recursion, but everything that walks the result afterwards (class-transformer, the JSON
 * writer, node-postgres turning a value into jsonb) recurses and overflowed the stack on 100 000 nested
 * arrays: a 500 from a 200 kB body (issue 10 item 10).
 */
export const MAX_JSON_DEPTH = 64;

/** A body-parser "parse failed" error: Nest maps it to 400 and the exception filter to DRF's parse error. */
class JsonDepthError extends SyntaxError {
  readonly status = 400;
  readonly type = 'entity.parse.failed';
}

/**
 * Throws when the JSON text nests arrays or objects deeper than `max`. One pass over the text that skips
 * strings (brackets inside a string are text), before JSON.parse runs, so a hostile body costs one scan.
 */
export function checkJsonDepth(text: string, max: number = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: the next character is escaped, whatever it is
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > max) throw new JsonDepthError(`Nesting deeper than ${max} levels`);
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
}

function verifyJsonDepth(_request: IncomingMessage, _response: unknown, body: Buffer, encoding: string): void {
  checkJsonDepth(new TextDecoder(encoding).decode(body));
}

/** A urlencoded body (read as text by express.text) becomes the form view of request-body.ts. */
function urlencodedFormView(request: Request, _response: Response, next: NextFunction): void {
  if (typeof request.body === 'string' && request.is('application/x-www-form-urlencoded')) {
    try {
      request.body = formBodyOf(parseUrlencoded(request.body));
    } catch (error) {
      next(error);
      return;
    }
  }
  next();
}

/**
 * Whether the request carries a body: the test body-parser itself makes first (type-is's `hasBody`: a
 * Transfer-Encoding header or a numeric Content-Length). Requests without one skip the parsers entirely.
 */
function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && !Number.isNaN(Number(length)));
}

/**
 * The request body parsers, configured here instead of Nest's defaults (100 kB, any depth): JSON and form
 * bodies up to MAX_REQUEST_BODY_BYTES (Django's DATA_UPLOAD_MAX_MEMORY_SIZE; larger is 413), JSON at most
 * MAX_JSON_DEPTH deep (deeper is 400 "JSON parse error - …", as DRF words a body it cannot parse).
 * Urlencoded bodies are read as DRF's FormParser reads them, into a QueryDict (request-body.ts), not with
 * qs's bracket syntax. Multipart bodies are parsed after the guard (multipart-body.interceptor.ts), upload
 * routes with their own limits. Run after the rate limiter and the HTTP contract middleware, so a refused
 * request's body is never parsed.
 *
 * One middleware that runs the three steps in turn, and none of them for a request without a body (every
 * read): as three Express layers they cost each request three router steps and two body-parser calls that
 * only found there was nothing to read (docs/performance.md, "Request pipeline").
 */
export function bodyParsers(config: Pick<AppConfig, 'maxRequestBodyBytes'>): RequestHandler {
  const json = express.json({ limit: config.maxRequestBodyBytes, verify: verifyJsonDepth });
  const text = express.text({ type: 'application/x-www-form-urlencoded', limit: config.maxRequestBodyBytes });
  return (request: Request, response: Response, next: NextFunction) => {
    if (!hasBody(request)) {
      next();
      return;
    }
    void json(request, response, (jsonError?: unknown) => {
      if (jsonError !== undefined && jsonError !== null) {
        next(jsonError);
        return;
      }
      void text(request, response, (textError?: unknown) => {
        if (textError !== undefined && textError !== null) next(textError);
        else urlencodedFormView(request, response, next);
      });
    });
  };
}
