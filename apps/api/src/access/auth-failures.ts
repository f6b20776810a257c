import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerException, ThrottlerStorage } from '@nestjs/throttler';
import type { Response } from 'express';
import { UnauthenticatedError } from '@pos/kernel';
import { hashToken } from '@pos/identity';
import { APP_CONFIG, AppConfig } from '@pos/platform';

/** The failure counter's window (the other tiers count per minute too). */
const WINDOW_MS = 60_000;
/** A token seen valid (or issued by a login here) this recently may still be looked up from a client past its failure budget. */
const KNOWN_TOKEN_MS = 15 * 60_000;
/** Entries each memory keeps at most (about 100 bytes each); past it the oldest is forgotten. */
const MAX_ENTRIES = 10_000;

/** Keys remembered until a time, at most `max` of them (the oldest-added goes first: O(1) under a flood). */
class ExpiringKeys {
  private readonly until = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** When `key`'s entry ends (epoch ms), or 0 when there is none in force. */
  get(key: string, nowMs: number): number {
    const until = this.until.get(key);
    if (until === undefined) return 0;
    if (until > nowMs) return until;
    this.until.delete(key);
    return 0;
  }

  set(key: string, untilMs: number): void {
    this.until.delete(key);
    if (this.until.size >= this.max) this.until.delete(this.until.keys().next().value as string);
    this.until.set(key, untilMs);
  }

  delete(key: string): void {
    this.until.delete(key);
  }
}

/** What to do with a presented token before it is looked up. */
export type TokenTriage = 'look-up' | 'fail' | 'refuse';

/**
 * Failed authentications (no token, or one that is unknown, expired or revoked) counted per
 * client IP, in the rate-limit storage the tiers use (Redis when configured, shared by every
 * replica; memory otherwise): RATE_LIMIT_AUTH_FAILURES a minute, then 429 with Retry-After until
 * the window ends. Counters are never keyed on a token nobody has verified (each made-up token
 * would get a fresh budget and a key of its own).
 *
 * Cheap refusals, per process, so a flood costs neither a database lookup nor a Redis call:
 * - a token hash that did not resolve is answered from memory for AUTH_CACHE_TTL_MS (negative
 *   cache: made-up tokens never come to exist, revoked and expired ones stay so);
 * - a client past its budget (as the shared counter last said) is refused before any lookup.
 * Only failures are limited: terminals of one shop share an address behind NAT, so a token this
 * process has seen valid (or issued at a login) in the last 15 minutes is still looked up and
 * served from an address past its budget. A valid token this process has never seen, from such
 * an address, waits for the window's end like a guess (it cannot be told from one without the
 * lookup the budget exists to save).
 */
@Injectable()
export class AuthFailureLimiter {
  private readonly unresolved = new ExpiringKeys(MAX_ENTRIES);
  private readonly known = new ExpiringKeys(MAX_ENTRIES);
  private readonly blocked = new ExpiringKeys(MAX_ENTRIES);
  private readonly limit: number;
  private readonly prefix: string;
  private readonly negativeTtlMs: number;

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.limit = config.rateLimit.authFailures;
    this.prefix = config.rateLimit.keyPrefix;
    this.negativeTtlMs = config.authCacheTtlMs;
  }

  /** A presented token's hash: look it up, count it as failed at once (known not to resolve), or refuse its client (past its budget). */
  triage(ip: string, tokenHash: string): TokenTriage {
    const now = Date.now();
    if (this.known.get(tokenHash, now)) return 'look-up';
    if (this.blocked.get(clientKey(ip), now)) return 'refuse';
    return this.unresolved.get(tokenHash, now) ? 'fail' : 'look-up';
  }

  /** The token resolved to a principal. */
  resolved(tokenHash: string): void {
    const now = Date.now();
    // Refreshed when half its time has passed: one map write per token every few minutes, not per request.
    if (this.known.get(tokenHash, now) - now < KNOWN_TOKEN_MS / 2) this.known.set(tokenHash, now + KNOWN_TOKEN_MS);
  }

  /** A token a login here has just issued: its first requests are served even from a client past its budget. */
  issued(plainToken: string): void {
    this.known.set(hashToken(plainToken), Date.now() + KNOWN_TOKEN_MS);
  }

  /** The token did not resolve (unknown, expired, revoked, or its user disabled). */
  unresolvedToken(tokenHash: string): void {
    this.known.delete(tokenHash);
    if (this.negativeTtlMs > 0) this.unresolved.set(tokenHash, Date.now() + this.negativeTtlMs);
  }

  /** Counts one failure of the client and throws: 401 within its budget, 429 with Retry-After past it. */
  async fail(ip: string, res: Response): Promise<never> {
    const key = clientKey(ip);
    const { totalHits, isBlocked, timeToExpire } = await this.storage.increment(
      `${this.prefix}:auth-fail:${key}`,
      WINDOW_MS,
      this.limit,
      WINDOW_MS,
      'auth-failures',
    );
    res.setHeader('X-RateLimit-Limit', this.limit);
    res.setHeader('X-RateLimit-Remaining', Math.max(0, this.limit - totalHits));
    if (!isBlocked) throw new UnauthenticatedError();
    const seconds = Math.max(1, Math.ceil(timeToExpire));
    this.blocked.set(key, Date.now() + seconds * 1000);
    res.setHeader('Retry-After', seconds);
    throw new ThrottlerException();
  }

  /** Refuses a client past its budget without counting (no storage call): 429 with Retry-After. */
  refuse(ip: string, res: Response): never {
    const until = this.blocked.get(clientKey(ip), Date.now());
    res.setHeader('X-RateLimit-Limit', this.limit);
    res.setHeader('X-RateLimit-Remaining', 0);
    res.setHeader('Retry-After', Math.max(1, Math.ceil((until - Date.now()) / 1000)));
    throw new ThrottlerException();
  }
}

function clientKey(ip: string): string {
  return createHash('sha256').update(ip).digest('base64url').slice(0, 32);
}
