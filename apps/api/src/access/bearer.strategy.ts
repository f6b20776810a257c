import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Response } from 'express';
import { Strategy } from 'passport-http-bearer';
import { hashToken, Principal, TokenService } from '@pos/identity';
import { AuthFailureLimiter } from './auth-failures';

/** An `Authorization` value longer than this is not looked at (not a credential: 401). */
const MAX_HEADER = 1024;
/** A presented token longer than this is counted as a failure without being hashed or looked up. */
const MAX_TOKEN = 200;

/**
 * What the bearer strategy is shown of a request: the `Authorization` header and nothing else
 * (passport-http-bearer would also take `access_token` from the body or the query string, which
 * end up in logs, histories and proxy caches: a token there is not a credential, 401), plus what
 * counting a failure needs (the client IP, the response for its headers) and the application's
 * strategy (see BearerStrategy.validate). The fields passport's middleware assigns to the request
 * it is given are declared here, so every view has one shape and the real request is not touched.
 */
export class CredentialView {
  readonly headers: { authorization?: string };
  user: unknown = undefined;
  authInfo: unknown = undefined;
  login: unknown = undefined;
  logIn: unknown = undefined;
  logout: unknown = undefined;
  logOut: unknown = undefined;
  isAuthenticated: unknown = undefined;
  isUnauthenticated: unknown = undefined;
  _sessionManager: unknown = undefined;

  constructor(
    authorization: string | undefined,
    readonly ip: string,
    readonly res: Response,
    readonly strategy: BearerStrategy,
  ) {
    this.headers = { authorization: typeof authorization === 'string' && authorization.length <= MAX_HEADER ? authorization : undefined };
  }
}

/**
 * Authentication on @nestjs/passport: passport-http-bearer reads `Authorization: Bearer <token>`
 * (RFC 6750) from the CredentialView the access guard (an `AuthGuard('bearer')`) hands it, and
 * `validate` resolves the token: hashed once, triaged by the failure limiter (a client past its
 * budget is refused before any lookup, a hash known not to resolve fails at once), looked up by
 * TokenService.authenticateHash (cached per process). A token that does not resolve is counted
 * against the client's budget: validate throws the limiter's 401 (or 429 past the budget), which
 * the guard's handleRequest rethrows. A request without a usable header never reaches validate
 * (the strategy fails it; the guard counts that failure).
 */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(
    private readonly tokens: TokenService,
    private readonly failures: AuthFailureLimiter,
  ) {
    super({ passReqToCallback: true });
  }

  async validate(view: CredentialView, token: string): Promise<Principal> {
    // passport keeps one strategy per name per process: with several applications in one process
    // (the test suites) the last one registered would answer for all, so a request is resolved by
    // the strategy of the application that received it.
    if (view.strategy !== this) return view.strategy.validate(view, token);
    if (token.length > MAX_TOKEN) return this.failures.fail(view.ip, view.res);
    const tokenHash = hashToken(token);
    const triage = this.failures.triage(view.ip, tokenHash);
    if (triage === 'refuse') this.failures.refuse(view.ip, view.res);
    if (triage === 'look-up') {
      const principal = await this.tokens.authenticateHash(tokenHash);
      if (principal) {
        this.failures.resolved(tokenHash);
        return principal;
      }
      this.failures.unresolvedToken(tokenHash);
    }
    return this.failures.fail(view.ip, view.res);
  }
}
