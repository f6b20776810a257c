import { createHash } from 'node:crypto';
import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '@pos/platform';
import { Reflector } from '@nestjs/core';
import { InjectThrottlerOptions, InjectThrottlerStorage, ThrottlerException, ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { RATE_TIER, RateTierName } from './policy.decorators';

type Tier = Exclude<RateTierName, 'none'>;

/**
 * One tier per route (contract part 8, decisions.md): login 5/min keyed by IP + email (and a
 * per-IP ceiling, RATE_LIMIT_LOGIN_IP, against spraying many emails); the
 * others per token (per IP when there is none). Counters live in the throttler storage: Redis
 * when REDIS_URL is set (shared by every replica), memory otherwise. Every throttled response
 * carries X-RateLimit-Limit / -Remaining; a 429 carries Retry-After.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limits = new Map<string, { limit: number; ttl: number }>();
  private readonly prefix: string;
  private readonly loginPerIp: number;

  constructor(
    private readonly reflector: Reflector,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.prefix = config.rateLimit.keyPrefix;
    this.loginPerIp = config.rateLimit.loginPerIp;
    const throttlers = Array.isArray(options) ? options : options.throttlers;
    for (const t of throttlers) this.limits.set(t.name ?? 'default', { limit: Number(t.limit), ttl: Number(t.ttl) });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const tier = this.reflector.getAllAndOverride<RateTierName | undefined>(RATE_TIER, [context.getHandler(), context.getClass()]) ?? 'standard';
    if (tier === 'none') return true;
    const { limit, ttl } = this.limits.get(tier) ?? this.limits.get('standard')!;
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const key = `${this.prefix}:${tier}:${tracker(tier, req)}`;
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
    return true;
  }
}

function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}

function tracker(tier: Tier, req: Request): string {
  const ip = clientIp(req);
  if (tier === 'login') {
    // Keyed by IP + the account being tried: the login email, or the approver's for discount approvals
    // (terminals behind one address do not share one budget; guessing one account is still capped).
    const body = req.body as { email?: unknown; approver_email?: unknown } | undefined;
    const account = body?.email ?? body?.approver_email;
    const email = typeof account === 'string' ? account.trim().toLowerCase().slice(0, 255) : '';
    return digest(`${ip}|${email}`);
  }
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^Bearer\s+\S+/i.test(auth)) return 't:' + digest(auth.replace(/^Bearer\s+/i, '').trim());
  return 'ip:' + ip;
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 32);
}
