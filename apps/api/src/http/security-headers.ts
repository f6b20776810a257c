import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

type Directives = Record<string, string[]>;
export type HeaderList = readonly (readonly [string, string])[];

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

/**
 * The headers helmet sets with a policy, worked out once at boot: helmet is run against a
 * recording response and its calls are kept. helmet's headers do not depend on the request (no
 * nonces are used), so every response gets the same list in one loop instead of helmet's dozen
 * middlewares per request.
 */
function helmetHeaders(directives: Directives, forDocuments = true): HeaderList {
  const set = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => set.set(name, String(value)),
    removeHeader: (name: string) => set.delete(name),
    getHeader: (name: string) => set.get(name),
  };
  let done = false;
  helmet({
    contentSecurityPolicy: { useDefaults: false, directives },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Headers that only mean something for an HTML document a browser renders (DNS prefetching,
    // IE's download prompt, Flash/PDF cross-domain policies, the legacy XSS auditor, agent
    // clusters) go on pages only; JSON answers keep the rest (the OWASP REST security headers).
    ...(forDocuments
      ? {}
      : { xDnsPrefetchControl: false, xDownloadOptions: false, xPermittedCrossDomainPolicies: false, xXssProtection: false, originAgentCluster: false }),
  })({ headers: {} } as IncomingMessage, recorder as unknown as ServerResponse, () => (done = true));
  if (!done) throw new Error('helmet did not finish synchronously: its headers cannot be precomputed');
  return [...set];
}

/**
 * helmet's headers on every response (nosniff, no framing, no referrer, HSTS, cross-origin
 * isolation policies), with one of two Content-Security-Policies: the OpenAPI page and the
 * dashboard load their scripts from files next to them (script-src 'self', no inline script)
 * and call only this origin; JSON answers allow nothing. API answers carry personal data and
 * tokens (login, 2FA secrets), so none may be stored by a browser or a proxy: no-store. GETs of
 * records and feed pages replace it with `private, no-cache` and an ETag (conditional.ts).
 */
export const API_HEADERS: HeaderList = [...helmetHeaders(API_CSP, false), ['Cache-Control', 'no-store']];
export const PAGE_HEADERS: HeaderList = helmetHeaders(PAGE_CSP);

export const isPage = (path: string): boolean =>
  path === '/api/docs' || path.startsWith('/api/docs/') || path.startsWith('/api/docs-') || path === '/dashboard' || path.startsWith('/dashboard/');
