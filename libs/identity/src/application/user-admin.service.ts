import { Injectable } from '@nestjs/common';
import { ConflictError, NotFoundError, ValidationFailedError } from '@pos/kernel';
import { PasswordHasher, StoreDirectory, UserRecord, UserRepository } from './ports';
import { Principal } from '../domain/principal';
import { TokenService, toPrincipal } from './token.service';
import { AuditLog, Transactional } from '@pos/platform';

/** These use cases run from the operator CLI. */
const OPERATOR_ACTOR = { userId: 0, name: 'operator (CLI)' };

/** Staff user administration used by the CLI (and later by back-office endpoints). */
@Injectable()
export class UserAdminService {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly stores: StoreDirectory,
    private readonly tokens: TokenService,
    private readonly audit: AuditLog,
  ) {}

  /** The password (or PIN) hash identity stores; the demo seed uses it for its users. */
  hashSecret(plain: string): Promise<string> {
    return this.hasher.hash(plain);
  }

  /**
   * The principal a user acts as outside any request, with no token: for work the service does on
   * a user's behalf itself (the demo data's trading history rings up sales as its cashiers).
   */
  async principalOf(userId: number): Promise<Principal> {
    const access = await this.users.loadAccess(userId);
    if (!access) throw new NotFoundError('User');
    return toPrincipal(access);
  }

  @Transactional()
  async createUser(input: { name: string; email: string; password: string; role: string; storeIds: number[] }): Promise<UserRecord> {
    const email = input.email.trim().toLowerCase();
    if (await this.users.findByEmail(email)) throw ValidationFailedError.field('email', 'The email has already been taken.');
    if (input.password.length < 8) throw ValidationFailedError.field('password', 'The password must be at least 8 characters.');
    const role = await this.users.roleBySlug(input.role);
    if (!role) throw ValidationFailedError.field('role', `Unknown role "${input.role}".`);
    const existing = await this.stores.existingIds(input.storeIds);
    const unknown = input.storeIds.filter((id) => !existing.includes(id));
    if (unknown.length) throw ValidationFailedError.field('store_ids', `Unknown store(s): ${unknown.join(', ')}.`);
    const user = await this.users.create(
      {
        name: input.name,
        email,
        passwordHash: await this.hasher.hash(input.password),
        roleId: role.id,
        defaultStoreId: input.storeIds[0] ?? null,
        isApiApplication: false,
      },
      [],
      input.storeIds,
    );
    await this.audit.record(
      { action: 'user.created', target: { type: 'user', id: user.id }, after: { name: user.name, email, role: role.slug, store_ids: input.storeIds } },
      OPERATOR_ACTOR,
    );
    return user;
  }

  /**
   * Per-user discount limits override the role's (null: back to the role's). Percent in basis
   * points, amount in minor units. Also sets a manager's approval PIN.
   */
  @Transactional()
  async setDiscountLimits(
    email: string,
    limits: { maxPercentBp?: number | null; maxAmount?: number | null; pin?: string },
  ): Promise<{ max_discount_percent_bp: number | null; max_discount_amount: number | null }> {
    const user = await this.staffUser(email);
    if (limits.maxPercentBp != null && (limits.maxPercentBp < 0 || limits.maxPercentBp > 10000))
      throw ValidationFailedError.field('max_percent', 'The percent must be between 0 and 100.');
    if (limits.maxAmount != null && limits.maxAmount < 0) throw ValidationFailedError.field('max_amount', 'The amount cannot be negative.');
    if (limits.pin !== undefined && !/^\d{4,8}$/.test(limits.pin)) throw ValidationFailedError.field('pin', 'The PIN must be 4 to 8 digits.');
    const changes = {
      ...(limits.maxPercentBp !== undefined ? { maxDiscountPercentBp: limits.maxPercentBp } : {}),
      ...(limits.maxAmount !== undefined ? { maxDiscountAmount: limits.maxAmount } : {}),
      ...(limits.pin !== undefined ? { pinHash: await this.hasher.hash(limits.pin) } : {}),
    };
    await this.users.update(user.id, changes);
    this.tokens.forgetUser(user.id);
    const after = await this.users.findById(user.id);
    await this.audit.record(
      {
        action: 'user.discount_limits_changed',
        target: { type: 'user', id: user.id },
        before: { max_discount_percent_bp: user.maxDiscountPercentBp, max_discount_amount: user.maxDiscountAmount },
        after: { max_discount_percent_bp: after!.maxDiscountPercentBp, max_discount_amount: after!.maxDiscountAmount, pin_changed: limits.pin !== undefined },
      },
      OPERATOR_ACTOR,
    );
    return { max_discount_percent_bp: after!.maxDiscountPercentBp, max_discount_amount: after!.maxDiscountAmount };
  }

  /**
   * A new password ends every session of the user: their tokens are revoked (a reset usually
   * follows a leaked password, and the thief's tokens must not outlive it).
   */
  @Transactional()
  async resetPassword(email: string, password: string): Promise<{ tokens_revoked: number }> {
    const user = await this.staffUser(email);
    if (password.length < 8) throw ValidationFailedError.field('password', 'The password must be at least 8 characters.');
    await this.users.update(user.id, { passwordHash: await this.hasher.hash(password) });
    const revoked = await this.tokens.revokeAllOf(user.id);
    await this.audit.record({ action: 'user.password_reset', target: { type: 'user', id: user.id }, after: { tokens_revoked: revoked } }, OPERATOR_ACTOR);
    return { tokens_revoked: revoked };
  }

  /**
   * Deactivates (a user who leaves: no login, tokens revoked) or activates a staff user again (who
   * then logs in anew). Setting the state a user already has changes nothing and is not audited.
   */
  @Transactional()
  async setActive(email: string, active: boolean): Promise<{ is_active: boolean; tokens_revoked: number }> {
    const user = await this.staffUser(email);
    if (user.isActive === active) return { is_active: active, tokens_revoked: 0 };
    await this.users.update(user.id, { isActive: active });
    const revoked = active ? 0 : await this.tokens.revokeAllOf(user.id);
    if (active) this.tokens.forgetUser(user.id);
    await this.audit.record(
      { action: active ? 'user.activated' : 'user.deactivated', target: { type: 'user', id: user.id }, after: { tokens_revoked: revoked } },
      OPERATOR_ACTOR,
    );
    return { is_active: active, tokens_revoked: revoked };
  }

  /** Signs a staff user out everywhere (a lost till): every token revoked; audited only when one was. */
  @Transactional()
  async revokeTokens(email: string): Promise<{ tokens_revoked: number }> {
    const user = await this.staffUser(email);
    const revoked = await this.tokens.revokeAllOf(user.id);
    if (revoked > 0)
      await this.audit.record({ action: 'user.tokens_revoked', target: { type: 'user', id: user.id }, after: { tokens_revoked: revoked } }, OPERATOR_ACTOR);
    return { tokens_revoked: revoked };
  }

  /**
   * Turns two-factor off for a user who lost their device: they log in with their password and
   * enrol again. Their tokens stay (the phone held none). Refused when 2FA is not on (409).
   */
  @Transactional()
  async resetTwoFactor(email: string): Promise<{ has_two_factor: false }> {
    const user = await this.staffUser(email);
    if (!user.twoFactorSecret) throw new ConflictError('two_factor_disabled', 'Two-factor authentication is not enabled.');
    await this.users.update(user.id, { twoFactorSecret: null, twoFactorConfirmedAt: null });
    this.tokens.forgetUser(user.id);
    await this.audit.record(
      { action: 'two_factor.reset', target: { type: 'user', id: user.id }, before: { confirmed: user.twoFactorConfirmedAt !== null } },
      OPERATOR_ACTOR,
    );
    return { has_two_factor: false };
  }

  /** A staff user by email (API applications are managed with app:create and token:revoke): 404 otherwise. */
  private async staffUser(email: string): Promise<UserRecord> {
    const user = await this.users.findByEmail(email.trim().toLowerCase());
    if (!user || user.isApiApplication) throw new NotFoundError('User');
    return user;
  }
}
