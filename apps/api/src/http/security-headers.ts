import type { NextFunction, Request, Response } from 'express';

/** The OpenAPI page loads its scripts from files next to it; only its styles are inline. */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Headers on every response: no MIME sniffing, no framing, no referrer. API answers carry
 * personal data and tokens (login, 2FA secrets), so none may be stored by a browser or a proxy:
 * `Cache-Control: no-store`. The docs page gets a Content-Security-Policy.
 */
export function securityHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  if (req.path === '/api/docs' || req.path.startsWith('/api/docs/') || req.path.startsWith('/api/docs-')) {
    res.setHeader('Content-Security-Policy', DOCS_CSP);
  } else {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
  }
  next();
}
