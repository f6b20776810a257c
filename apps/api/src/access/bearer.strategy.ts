import { Injectable } from '@nestjs/common';
import { Strategy, VerifyFunction } from 'passport-http-bearer';
import { Principal, TokenService } from '@pos/identity';

type Outcome = { user: Principal | null } | { error: unknown };
type Run = Strategy<VerifyFunction> & { success(user: Principal): void; fail(): void; error(error: unknown): void };

/**
 * passport-http-bearer, driven directly (no passport middleware or AuthGuard closures per
 * request). It is handed only the Authorization header: the strategy would also read
 * `access_token` from the body or the query string, which end up in logs, histories and proxy
 * caches, so those are never given to it (a token there is simply not a credential: 401).
 * Infrastructure errors while resolving a token (the database down) come back as errors, not as
 * "no user": the caller answers 503, never 401 for a token that may well be valid.
 */
@Injectable()
export class BearerAuthenticator {
  private readonly strategy: Strategy<VerifyFunction>;

  constructor(tokens: TokenService) {
    this.strategy = new Strategy((token, done) => {
      tokens.authenticate(token).then(
        (principal) => done(null, principal ?? false),
        (error: unknown) => done(error),
      );
    });
  }

  /** The principal for an `Authorization` header value, null when missing or not a valid token. */
  authenticate(authorization: string | undefined): Promise<Principal | null> {
    if (typeof authorization !== 'string' || authorization.length > 1024) return Promise.resolve(null);
    return new Promise<Outcome>((resolve) => {
      const run = Object.create(this.strategy) as Run;
      run.success = (user: Principal) => resolve({ user });
      run.fail = () => resolve({ user: null });
      run.error = (error: unknown) => resolve({ error });
      run.authenticate({ headers: { authorization } } as never);
    }).then((outcome) => {
      if ('error' in outcome) throw outcome.error;
      return outcome.user;
    });
  }
}
