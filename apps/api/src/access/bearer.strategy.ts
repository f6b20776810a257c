import { Injectable } from '@nestjs/common';
import { Strategy, VerifyFunction } from 'passport-http-bearer';

type Run = Strategy<VerifyFunction> & { success(token: string): void; fail(): void; error(error: unknown): void };

/**
 * passport-http-bearer reads the credential: `Authorization: Bearer <token>` (RFC 6750), driven
 * directly and synchronously (no passport middleware, no AuthGuard, no promise per request; its
 * verify step only hands the token back, the access guard resolves it once hashed). It is given
 * only the Authorization header: the strategy would also read `access_token` from the body or the
 * query string, which end up in logs, histories and proxy caches, so those are never given to it
 * (a token there is simply not a credential: 401).
 */
@Injectable()
export class BearerCredentials {
  private readonly strategy = new Strategy((token, done) => done(null, token as never));

  /** The bearer token of an `Authorization` header value, null when missing or malformed. */
  tokenOf(authorization: string | undefined): string | null {
    if (typeof authorization !== 'string' || authorization.length > 1024) return null;
    let token: string | null = null;
    const run = Object.create(this.strategy) as Run;
    run.success = (t: string) => (token = t);
    run.fail = () => undefined;
    run.error = () => undefined;
    run.authenticate({ headers: { authorization } } as never);
    return token;
  }
}
