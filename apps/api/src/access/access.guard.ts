import { createHash } from 'node:crypto';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { InjectThrottlerOptions, InjectThrottlerStorage, ThrottlerException, ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { ForbiddenError } from '@pos/kernel';
import { DEFAULT_ROUTE_ABILITY, hasAbility, hasPermission, Principal } from '@pos/identity';
import { APP_CONFIG, AppConfig, armWriteDeadline, RequestContext } from '@pos/platform';
import { writeDeadlineMsOf } from '../http/write-deadline';
import { readsBody, refuseUnexpectedBody } from '../http/no-body';
import { AuthFailureLimiter } from './auth-failures';
import { BearerStrategy, CredentialView } from './bearer.strategy';
import { RATE_TIER, RateTierName, ROUTE_POLICY, RoutePolicy } from './policy.decorators';

type Tier = Exclude<RateTierName, 'none'>;
type Handler = (...args: unknown[]) => unknown;
type Req = Request & { user?: Principal };

/** What handleRequest throws when the strategy found no credential (no usable `Authorization: Bearer`): counted by canActivate. */
const NO_CREDENTIAL = Symbol('no bearer credential');

/** What a route declares, read from its metadata once. */
interface RouteRules {
  policy: RoutePolicy | undefined;
  tier: RateTierName;
  /** The route's write deadline in ms (0: none). */
  deadlineMs: number;
  /** Whether the handler reads a body (else a write's non-empty body is 422, no-body.ts). */
  takesBody: boolean;
}

/**
 * The one global guard, in this order (a write route's deadline, http/write-deadline.ts, is
 * armed before all of it):
 *  1. Authentication (protected routes), on @nestjs/passport: this guard is an `AuthGuard('bearer')`
 *     whose strategy (BearerStrategy: passport-http-bearer, shown `Authorization` only through a
 *     CredentialView) hashes the token once and resolves it by TokenService (cached per process);
 *     handleRequest puts the principal on req.user. A missing or failed credential counts against the client IP's budget
 *     of failures (AuthFailureLimiter: 401 within it, 429 past it, a client past it refused before
 *     any lookup, unknown tokens remembered briefly), so made-up tokens cost no lookup once the
 *     budget is spent and never get a counter of their own.
 *  2. Rate limit (contract part 8, decisions.md): one tier per route; login 5/min keyed by IP +
 *     email (and a per-IP ceiling, RATE_LIMIT_LOGIN_IP, against spraying many emails), the others
 *     per verified token (per IP on public routes). Counters live in the rate-limit storage:
 *     Redis when REDIS_URL is set (shared by every replica, one round trip), memory otherwise (one
 *     map operation). Every throttled response carries X-RateLimit-Limit / -Remaining (a 401 or a
 *     failure's 429: those of the failure budget); a 429 Retry-After.
 *  3. Authorisation from the route's declared policy: token ability, API-application
 *     requirement, permission. Store access is checked by the use cases (a filter naming another
 *     store: 403; a record of another store: 404).
 * A route's policy and tier are read from its metadata on its first request and kept.
 */
@Injectable()
export class AccessGuard extends AuthGuard('bearer') implements CanActivate {
  private readonly rules = new Map<Handler, RouteRules>();
  private readonly limits = new Map<string, { limit: number; ttl: number }>();
  private readonly prefix: string;
  private readonly loginPerIp: number;
  private readonly config: AppConfig;

  constructor(
    private readonly reflector: Reflector,
    private readonly strategy: BearerStrategy,
    private readonly failures: AuthFailureLimiter,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super();
    this.prefix = config.rateLimit.keyPrefix;
    this.loginPerIp = config.rateLimit.loginPerIp;
    this.config = config;
    const throttlers = Array.isArray(options) ? options : options.throttlers;
    for (const t of throttlers) this.limits.set(t.name ?? 'default', { limit: Number(t.limit), ttl: Number(t.ttl) });
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const { policy, tier, deadlineMs, takesBody } = this.rulesOf(context);
    const http = context.switchToHttp();
    const req = http.getRequest<Req>();
    const res = http.getResponse<Response>();
    // Counted from arrival, armed before any lookup (a frozen database meets it here already), and
    // lifted once the answer has been sent, for work the request left behind (a client that hung
    // up causes no 'finish': its write stays bounded).
    if (deadlineMs) res.once('finish', armWriteDeadline(deadlineMs));
    if (policy?.kind === 'public') {
      if (tier !== 'none') await this.throttle(tier, req, res, null);
      if (!takesBody) refuseUnexpectedBody(req);
      return true;
    }
    try {
      await super.canActivate(context);
    } catch (error) {
      if (error === NO_CREDENTIAL) await this.failures.fail(clientIp(req), res);
      throw error;
    }
    const principal = req.user!;
    if (tier !== 'none') await this.throttle(tier, req, res, principal.token.hash);
    // Audit entries and log lines written while serving the request name this caller.
    RequestContext.setActor({ userId: principal.userId, name: principal.name });
    if (!policy) throw new ForbiddenError(); // unreachable: the boot check refuses such routes

    if (policy.kind === 'integration') {
      if (!principal.isApiApplication) throw new ForbiddenError('Integration endpoints are for API application users.');
      if (!hasAbility(principal, 'integration:read')) throw new ForbiddenError('The token lacks the integration:read ability.');
    } else if (!hasAbility(principal, DEFAULT_ROUTE_ABILITY)) {
      throw new ForbiddenError('The token does not grant access to this endpoint.');
    }
    if ((policy.kind === 'permission' || policy.kind === 'integration') && policy.permission !== null && !hasPermission(principal, policy.permission)) {
      throw new ForbiddenError(`You do not have the ${policy.permission} permission.`);
    }
    // After 401/403: a write that takes no body names what it was sent (422).
    if (!takesBody) refuseUnexpectedBody(req);
    return true;
  }

  /** What the bearer strategy is shown of the request (AuthGuard calls it for passport): see CredentialView. */
  override getRequest(context: ExecutionContext): CredentialView {
    const http = context.switchToHttp();
    const req = http.getRequest<Req>();
    return new CredentialView(req.headers.authorization, clientIp(req), http.getResponse<Response>(), this.strategy);
  }

  /** passport's outcome: the principal on req.user; a strategy error (the limiter's 401/429) rethrown; no credential counted by canActivate. */
  override handleRequest<TUser = Principal>(error: unknown, user: TUser | false, _info: unknown, context: ExecutionContext): TUser {
    if (error) throw error;
    if (!user) throw NO_CREDENTIAL;
    context.switchToHttp().getRequest<{ user?: unknown }>().user = user;
    return user;
  }

  private rulesOf(context: ExecutionContext): RouteRules {
    const handler = context.getHandler() as Handler;
    let rules = this.rules.get(handler);
    if (!rules) {
      const targets = [handler, context.getClass()];
      rules = {
        policy: this.reflector.getAllAndOverride<RoutePolicy | undefined>(ROUTE_POLICY, targets),
        tier: this.reflector.getAllAndOverride<RateTierName | undefined>(RATE_TIER, targets) ?? 'standard',
        deadlineMs: writeDeadlineMsOf(this.reflector, targets, this.config),
        takesBody: readsBody(context.getClass(), handler),
      };
      this.rules.set(handler, rules);
    }
    return rules;
  }

  /** Counts the request in its tier: per verified token hash, or per IP (and email, for login) on public routes. */
  private async throttle(tier: Tier, req: Request, res: Response, tokenHash: string | null): Promise<void> {
    const { limit, ttl } = this.limits.get(tier) ?? this.limits.get('standard')!;
    const key = `${this.prefix}:${tier}:${tracker(tier, req, tokenHash)}`;
    const { totalHits, isBlocked, timeToBlockExpire, timeToExpire } = await this.storage.increment(key, ttl, limit, ttl, tier);
    res.setHeader('X-RateLimit-Limit', limit);
    res.setHeader('X-RateLimit-Remaining', Math.max(0, limit - totalHits));
    if (isBlocked) {
      res.setHeader('Retry-After', Math.max(1, Math.ceil(timeToBlockExpire || timeToExpire)));
      throw new ThrottlerException();
    }
    if (tier === 'login') {
      // Password spraying: many emails from one address each get their own 5/min, so the
      // password-checking tier also has a ceiling per IP whatever the email.
      const perIp = await this.storage.increment(`${this.prefix}:login-ip:${digest(clientIp(req))}`, ttl, this.loginPerIp, ttl, 'login');
      if (perIp.isBlocked) {
        res.setHeader('X-RateLimit-Limit', this.loginPerIp);
        res.setHeader('X-RateLimit-Remaining', 0);
        res.setHeader('Retry-After', Math.max(1, Math.ceil(perIp.timeToBlockExpire || perIp.timeToExpire)));
        throw new ThrottlerException();
      }
    }
  }
}

function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

function tracker(tier: Tier, req: Request, tokenHash: string | null): string {
  if (tier === 'login') {
    // Keyed by IP + the email being tried (terminals behind one address do not share one budget;
    // guessing one account is still capped). Discount approvals are not in this tier: a cashier's
    // guesses at a manager's PIN are counted by identity per cashier and address, never against
    // the manager's own login (ApproverService).
    const body = req.body as { email?: unknown } | undefined;
    const email = typeof body?.email === 'string' ? body.email.trim().toLowerCase().slice(0, 255) : '';
    return digest(`${clientIp(req)}|${email}`);
  }
  return tokenHash === null ? `ip:${clientIp(req)}` : `t:${tokenHash.slice(0, 32)}`;
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 32);
}
