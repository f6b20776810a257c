import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

type Directives = Record<string, string[]>;

/** Pages that load their own scripts (files next to them, never inline) and only inline styles. */
const PAGE_CSP: Directives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
};

/** JSON answers load nothing. */
const API_CSP: Directives = { defaultSrc: ["'none'"], frameAncestors: ["'none'"] };

const withPolicy = (directives: Directives): RequestHandler =>
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  });

const apiHeaders = withPolicy(API_CSP);
const pageHeaders = withPolicy(PAGE_CSP);

const isPage = (path: string) =>
  path === '/api/docs' || path.startsWith('/api/docs/') || path.startsWith('/api/docs-') || path === '/dashboard' || path.startsWith('/dashboard/');

/**
 * helmet's headers on every response (nosniff, no framing, no referrer, HSTS, cross-origin
 * isolation policies), with one of two Content-Security-Policies: the OpenAPI page and the
 * dashboard load their scripts from files next to them (script-src 'self', no inline script)
 * and call only this origin; JSON answers allow nothing. API answers carry personal data and
 * tokens (login, 2FA secrets), so none may be stored by a browser or a proxy: no-store.
 */
export function securityHeaders(req: Request, res: Response, next: NextFunction): void {
  if (isPage(req.path)) {
    void pageHeaders(req, res, next);
    return;
  }
  res.setHeader('Cache-Control', 'no-store');
  void apiHeaders(req, res, next);
}
