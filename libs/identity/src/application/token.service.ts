import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { Clock } from '@pos/kernel';
import { APP_CONFIG, AppConfig, defineJob, JobHandler, JobQueue, ReplicaBroadcast, Transactional } from '@pos/platform';
import { Principal } from '../domain/principal';
import { TokenRecord, TokenRepository, UserAccess, UserRepository } from './ports';

/** Records last_used_at off the request path, at most once a minute per token. */
export const TouchTokenJob = defineJob<{ tokenId: number; usedAt: string }>('identity.touch-token', {
  attempts: 3,
  backoffMs: 2000,
  keepCompletedSeconds: 120,
});

const TOUCH_EVERY_MS = 60_000;
const CACHE_MAX_ENTRIES = 10_000;
const REVOKED_TOPIC = 'identity.revoked';
const ANNOUNCE_AGAIN_MS = 400;
const NO_CACHE_AFTER_REVOCATION_MS = 2000;

interface Revoked {
  kind: 'token' | 'user';
  id: number;
}

export interface IssuedToken {
  plainText: string;
  record: TokenRecord;
}

export function hashToken(plain: string): string {
  return createHash('sha256').update(plain).digest('hex');
}

/**
 * Opaque bearer tokens: 240 random bits shown once, stored only as SHA-256. Resolved principals
 * are cached per process for AUTH_CACHE_TTL_MS (default 5 s) to keep the per-request cost low.
 * A revocation (token revoked, user disabled or changed) clears this cache at once and is
 * broadcast to the other replicas (ReplicaBroadcast, Redis pub/sub), which clear theirs: every
 * replica refuses the token within about a second; without Redis (one process) nothing changes,
 * and while Redis is down the others fall back to the TTL. The broadcast is sent again shortly
 * after, so a replica that re-read the token before the revoking transaction committed drops
 * it too.
 */
@Injectable()
export class TokenService implements OnModuleInit {
  // Not a KeyedCache: entries are forgotten by what they hold (a token's or user's id), carry the
  // last touch, expire on the Clock, and are kept only if not revoked elsewhere a moment ago.
  private readonly cache = new Map<string, { principal: Principal; until: number; lastTouch: number }>();
  /** `token:<id>` / `user:<id>` revoked elsewhere a moment ago -> until when not to cache them. */
  private readonly uncacheable = new Map<string, number>();

  constructor(
    private readonly tokens: TokenRepository,
    private readonly users: UserRepository,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly broadcast: ReplicaBroadcast,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.broadcast.subscribe(REVOKED_TOPIC, (message) => {
      const m = message as Partial<Revoked>;
      if ((m.kind !== 'token' && m.kind !== 'user') || typeof m.id !== 'number') return;
      this.forget((p) => (m.kind === 'token' ? p.token.id : p.userId) === m.id);
      // The revoking transaction may not have committed yet: do not cache this token or user
      // again for a moment, so a read that still sees it valid is not kept for the whole TTL.
      const nowMs = this.clock.now().getTime();
      for (const [key, until] of this.uncacheable) if (until <= nowMs) this.uncacheable.delete(key);
      this.uncacheable.set(`${m.kind}:${m.id}`, nowMs + NO_CACHE_AFTER_REVOCATION_MS);
    });
  }

  /** Tells the other replicas now and once more after the revoking transaction has surely committed. */
  private announce(revoked: Revoked): void {
    this.broadcast.publish(REVOKED_TOPIC, revoked);
    setTimeout(() => this.broadcast.publish(REVOKED_TOPIC, revoked), ANNOUNCE_AGAIN_MS).unref();
  }

  /** `expiresInMinutes`: default TOKEN_TTL_MINUTES; null: never expires (API application tokens under APP_TOKEN_TTL_MINUTES=0). */
  async issue(userId: number, options: { name: string; abilities: string[]; storeId: number | null; expiresInMinutes?: number | null }): Promise<IssuedToken> {
    const plainText = 'pos_' + randomBytes(30).toString('base64url');
    const minutes = options.expiresInMinutes === undefined ? this.config.tokenTtlMinutes : options.expiresInMinutes;
    const record = await this.tokens.insert({
      userId,
      name: options.name,
      tokenHash: hashToken(plainText),
      abilities: options.abilities,
      storeId: options.storeId,
      // Whole seconds: what MySQL's DATETIME keeps, so the issue response shows the stored expiry.
      expiresAt: minutes === null ? null : new Date(Math.floor((this.clock.now().getTime() + minutes * 60_000) / 1000) * 1000),
    });
    return { plainText, record };
  }

  /** The principal for a presented token, or null when unknown, revoked, expired or disabled. */
  async authenticate(plainText: string): Promise<Principal | null> {
    if (plainText.length > 200) return null;
    return this.authenticateHash(hashToken(plainText));
  }

  /** The same, for a token the caller has already hashed with `hashToken` (the access guard hashes once per request). */
  async authenticateHash(hash: string): Promise<Principal | null> {
    const nowMs = this.clock.now().getTime();
    const cached = this.cache.get(hash);
    if (cached && cached.until > nowMs) {
      if (cached.principal.token.expiresAt && cached.principal.token.expiresAt.getTime() <= nowMs) return null;
      this.maybeTouch(cached, nowMs);
      return cached.principal;
    }
    const token = await this.tokens.findByHash(hash);
    if (!token || token.revokedAt || (token.expiresAt && token.expiresAt.getTime() <= nowMs)) {
      this.cache.delete(hash);
      return null;
    }
    const access = await this.users.loadAccess(token.userId);
    if (!access || !access.user.isActive) return null;
    const principal = toPrincipal(access, token);
    const warningDays = this.config.appTokens.expiryWarningDays;
    if (access.user.isApiApplication && token.expiresAt && warningDays > 0)
      principal.token.warnFrom = new Date(token.expiresAt.getTime() - warningDays * 86_400_000);
    const entry = { principal, until: nowMs + this.config.authCacheTtlMs, lastTouch: token.lastUsedAt?.getTime() ?? 0 };
    if (this.config.authCacheTtlMs > 0 && !this.recentlyRevoked(principal, nowMs)) {
      if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(hash, entry);
    }
    this.maybeTouch(entry, nowMs);
    return principal;
  }

  /** False when the token was already revoked (nothing changed). */
  @Transactional()
  async revoke(tokenId: number): Promise<boolean> {
    const changed = await this.tokens.revoke(tokenId, this.clock.now());
    this.forget((p) => p.token.id === tokenId);
    this.announce({ kind: 'token', id: tokenId });
    return changed;
  }

  /**
   * Revokes every token of a user (a password reset, a deactivation, a lost till) and drops their
   * cached principals here and, through the broadcast, in the other replicas; a replica the
   * broadcast does not reach (no Redis) refuses them once its cache entry ends (AUTH_CACHE_TTL_MS).
   * Returns how many tokens it revoked.
   */
  @Transactional()
  async revokeAllOf(userId: number): Promise<number> {
    const revoked = await this.tokens.revokeAllOf(userId, this.clock.now());
    this.forgetUser(userId);
    return revoked;
  }

  /** Drops cached principals of a user, in every replica (after a permission, password, 2FA or active change). */
  forgetUser(userId: number): void {
    this.forget((p) => p.userId === userId);
    this.announce({ kind: 'user', id: userId });
  }

  @JobHandler(TouchTokenJob)
  @Transactional()
  async recordUse(payload: { tokenId: number; usedAt: string }): Promise<void> {
    await this.tokens.touch(payload.tokenId, new Date(payload.usedAt));
  }

  private recentlyRevoked(principal: Principal, nowMs: number): boolean {
    if (this.uncacheable.size === 0) return false;
    return (this.uncacheable.get(`token:${principal.token.id}`) ?? 0) > nowMs || (this.uncacheable.get(`user:${principal.userId}`) ?? 0) > nowMs;
  }

  private forget(match: (p: Principal) => boolean): void {
    for (const [hash, entry] of this.cache) if (match(entry.principal)) this.cache.delete(hash);
  }

  private maybeTouch(entry: { principal: Principal; lastTouch: number }, nowMs: number): void {
    if (nowMs - entry.lastTouch < TOUCH_EVERY_MS) return;
    entry.lastTouch = nowMs;
    const tokenId = entry.principal.token.id;
    void this.queue
      .enqueue(TouchTokenJob, { tokenId, usedAt: new Date(nowMs).toISOString() }, { jobId: `touch-${tokenId}-${Math.floor(nowMs / TOUCH_EVERY_MS)}` })
      .catch(() => undefined); // last_used_at is best effort; never fail a request for it
  }
}

type TokenPart = Pick<TokenRecord, 'id' | 'name' | 'tokenHash' | 'abilities' | 'storeId' | 'expiresAt'>;
const NO_TOKEN: TokenPart = { id: 0, name: '', tokenHash: '', abilities: [], storeId: null, expiresAt: null };

/** Builds the principal of a user's access, for a token (or none yet, during login). */
export function toPrincipal(access: UserAccess, token: TokenPart = NO_TOKEN): Principal {
  const { user, role } = access;
  const isSuperAdmin = role?.isSuperAdmin ?? false;
  const unrestrictedApp = user.isApiApplication && access.storeIds.length === 0;
  return {
    userId: user.id,
    name: user.name,
    email: user.email,
    role: role ? { id: role.id, name: role.name, slug: role.slug } : null,
    isSuperAdmin,
    isApiApplication: user.isApiApplication,
    permissions: new Set(access.permissions),
    stores: isSuperAdmin || unrestrictedApp ? 'all' : access.storeIds,
    defaultStoreId: user.defaultStoreId,
    discountLimits: {
      maxPercentBp: user.maxDiscountPercentBp ?? role?.maxDiscountPercentBp ?? 0,
      maxAmount: user.maxDiscountAmount ?? role?.maxDiscountAmount ?? 0,
    },
    token: { id: token.id, name: token.name, hash: token.tokenHash, abilities: token.abilities, storeId: token.storeId, expiresAt: token.expiresAt },
  };
}
