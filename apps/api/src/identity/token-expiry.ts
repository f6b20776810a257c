import type { Request, Response } from 'express';
import type { Principal } from '@pos/identity';

const DAY_MS = 86_400_000;

/**
 * A partner learns its token's end from the responses it already reads (issue 25 item 10): every
 * response to an API application token that expires carries `X-Token-Expires-At`, and from
 * APP_TOKEN_EXPIRY_WARNING_DAYS before that moment (`token.warnFrom`, set when the token
 * resolved) a `Warning: 299` header saying how to rotate. Set where answers are written (the
 * envelope adapter, the exception filter), after the access guard has put the principal on the
 * request, so no interceptor is added to every route. Staff tokens (login) carry neither.
 */
export function setTokenExpiryHeaders(req: Request | undefined, res: Response, nowMs = Date.now()): void {
  const principal = (req as (Request & { user?: Principal }) | undefined)?.user;
  const token = principal?.isApiApplication ? principal.token : undefined;
  if (!token?.expiresAt || res.headersSent) return;
  const at = token.expiresAt.toISOString();
  res.setHeader('X-Token-Expires-At', at);
  if (token.warnFrom && nowMs >= token.warnFrom.getTime()) {
    const days = Math.floor((token.expiresAt.getTime() - nowMs) / DAY_MS);
    const left = days < 1 ? 'in less than a day' : `in ${days} day${days === 1 ? '' : 's'}`;
    res.setHeader('Warning', `299 - "This API token expires at ${at} (${left}): issue a new token, switch to it, then revoke this one"`);
  }
}
