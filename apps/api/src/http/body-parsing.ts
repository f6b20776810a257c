import type { NextFunction, Request, Response } from 'express';
import { json } from 'express';
import { toErrorResponse } from './exception.filter';

/** Structural limits of a JSON body, checked on the raw bytes before JSON.parse. */
export const JSON_LIMITS = { depth: 32, arrayItems: 100_000, objectKeys: 1_000 } as const;

/**
 * Scans a JSON text once (no parsing, no recursion) and says what is wrong with its shape:
 * nesting deeper than `depth` (10,000 levels overflowed the stack of the validation pipe),
 * an array with more than `arrayItems` elements or an object with more than `objectKeys` keys
 * (both cost seconds of CPU before any field rule could refuse them). Malformed text is left to
 * JSON.parse.
 */
export function jsonShapeProblem(buf: Uint8Array, limits: { depth: number; arrayItems: number; objectKeys: number } = JSON_LIMITS): string | null {
  const counts: number[] = [0];
  const isObject: boolean[] = [false];
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) continue;
    if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--;
      continue;
    }
    if (depth > 0 && counts[depth] === 0) counts[depth] = 1; // first value (or key) of this container
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > limits.depth) return `The JSON body is nested more than ${limits.depth} levels deep.`;
      counts[depth] = 0;
      isObject[depth] = c === 0x7b;
    } else if (c === 0x2c && depth > 0) {
      counts[depth]++;
      if (isObject[depth] ? counts[depth] > limits.objectKeys : counts[depth] > limits.arrayItems) {
        return isObject[depth]
          ? `A JSON object in the body has more than ${limits.objectKeys} keys.`
          : `A JSON array in the body has more than ${limits.arrayItems} elements.`;
      }
    }
  }
  return null;
}

class JsonShapeError extends Error {
  readonly type = 'entity.shape.invalid';
  readonly status = 400;
  readonly expose = true;
}

/** JSON bodies only, size-limited and shape-limited; malformed JSON is 400 and too large is 413, in the envelope. */
export function jsonBodyParser(limit: string) {
  return json({
    limit,
    strict: true,
    type: ['application/json', 'application/*+json'],
    verify: (_req, _res, buf) => {
      const problem = jsonShapeProblem(buf);
      if (problem) throw new JsonShapeError(problem);
    },
  });
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] !== undefined) return true;
  return length !== undefined && length !== '0';
}

const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * Request bodies, in one middleware: a request without a body (every GET) passes straight on; a
 * body in anything but JSON is 415 (the contract: "Send Content-Type: application/json"); JSON is
 * parsed with the general limit, or a larger one on the paths given (offline uploads carry up to
 * 500 sales); parser errors are answered here in the envelope (bodyParserErrorHandler).
 */
export function jsonBodies(limit: string, larger: { path: string; limit: string }[] = []) {
  const general = jsonBodyParser(limit);
  const special = larger.map((l) => ({ path: l.path, parse: jsonBodyParser(l.limit) }));
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hasBody(req)) return next();
    if (BODY_METHODS.has(req.method) && !req.is(JSON_TYPES)) {
      res.status(415).json({ success: false, message: 'Unsupported media type: send the body as application/json.' });
      return;
    }
    const path = req.path;
    const parse = special.find((s) => path === s.path || path.startsWith(`${s.path}/`))?.parse ?? general;
    void parse(req, res, (err?: unknown) => (err === undefined ? next() : bodyParserErrorHandler(err, req, res, next)));
  };
}

export function bodyParserErrorHandler(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const e = err as { type?: string; message?: string };
  if (e?.type === 'entity.parse.failed') {
    res.status(400).json({ success: false, message: 'Malformed JSON in the request body.' });
    return;
  }
  if (e?.type === 'entity.shape.invalid') {
    res.status(400).json({ success: false, message: e.message });
    return;
  }
  if (e?.type === 'entity.too.large') {
    res.status(413).json({ success: false, message: 'The request body is too large.' });
    return;
  }
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
    res.status(415).json({ success: false, message: 'Unsupported media type: send the body as application/json (UTF-8).' });
    return;
  }
  if (e?.type) {
    const { status, body } = toErrorResponse(err);
    res.status(status).json(body);
    return;
  }
  next(err);
}
