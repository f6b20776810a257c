import type { NextFunction, Request, Response } from 'express';
import { json } from 'express';
import { requestId } from '@pos/platform';
import { toErrorResponse } from './exception.filter';

/** First middleware: every response, even a body-parser error, carries X-Request-Id. */
export function requestIdMiddleware(req: Request & { id?: string }, res: Response, next: NextFunction): void {
  req.id = requestId(req, res);
  next();
}

/** JSON bodies only, size-limited; malformed JSON is 400 and too large is 413, in the envelope. */
export function jsonBodyParser(limit: string) {
  return json({ limit, strict: true, type: ['application/json', 'application/*+json'] });
}

export function bodyParserErrorHandler(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  const e = err as { type?: string };
  if (e?.type === 'entity.parse.failed') {
    res.status(400).json({ success: false, message: 'Malformed JSON in the request body.' });
    return;
  }
  if (e?.type === 'entity.too.large') {
    res.status(413).json({ success: false, message: 'The request body is too large.' });
    return;
  }
  if (e?.type) {
    const { status, body } = toErrorResponse(err);
    res.status(status).json(body);
    return;
  }
  next(err);
}
