import { Injectable } from '@nestjs/common';
import { ConflictError, fromMinor, ValidationFailedError } from '@pos/kernel';
import { canAccessStore, currentStoreId, Principal } from '../domain/principal';
import { PasswordHasher, StoreDirectory, TwoFactorProvider, UserRecord, UserRepository } from './ports';
import { PasswordCheckGate } from './password-check.gate';
import { consumeTwoFactorCode } from './two-factor-code';
import { TokenService, toPrincipal } from './token.service';
import { AuditLog, Transactional } from '@pos/platform';

export interface LoginInput {
  email: string;
  password: string;
  deviceName?: string;
  storeId?: number;
  twoFactorCode?: string;
}

export interface LoginResult {
  token: string;
  user: {
    id: number;
    name: string;
    email: string;
    role: { id: number; name: string; slug: string } | null;
    store_id: number | null;
    store_name: string | null;
    is_super_admin: boolean;
    has_two_factor: boolean;
  };
  permissions: string[];
  store_id: number | null;
}

export const DEFAULT_DEVICE_NAME = 'Mobile POS';
const BAD_CREDENTIALS = 'These credentials do not match our records.';

const meViews = new WeakMap<Principal, object>();

@Injectable()
export class AuthService {
  private dummyHash?: Promise<string>;

  constructor(
    private readonly users: UserRepository,
    private readonly tokens: TokenService,
    private readonly hasher: PasswordHasher,
    private readonly passwords: PasswordCheckGate,
    private readonly stores: StoreDirectory,
    private readonly twoFactor: TwoFactorProvider,
    private readonly audit: AuditLog,
  ) {}

  /**
   * The password is verified before any transaction opens: a flood of wrong passwords holds no
   * database connection (nor, on SQLite, the one transaction slot) while argon2 runs, and waits
   * for a verification slot of the process (PasswordCheckGate, 429 past its queue). Only a
   * caller with the right password opens the short transaction that checks the 2FA code and
   * issues the token; it reads the user again, who must still be active with the verified hash.
   */
  async login(input: LoginInput): Promise<LoginResult> {
    const user = await this.users.findByEmail(input.email.trim().toLowerCase());
    // Always spend one hash verification so response time does not reveal which emails exist.
    const hash = user?.passwordHash ?? (await (this.dummyHash ??= this.hasher.hash('not-a-real-password')));
    const passwordOk = await this.passwords.verify(hash, input.password);
    if (!user || !user.passwordHash || !passwordOk || !user.isActive || user.isApiApplication) {
      throw ValidationFailedError.field('email', BAD_CREDENTIALS);
    }
    return this.issueLoginToken(user.id, user.passwordHash, input);
  }

  @Transactional()
  private async issueLoginToken(userId: number, verifiedHash: string, input: LoginInput): Promise<LoginResult> {
    const access = await this.users.loadAccess(userId);
    const user = access?.user;
    // Changed since the password was checked (disabled, or a new password): as if it were wrong.
    if (!access || !user || user.passwordHash !== verifiedHash || !user.isActive || user.isApiApplication) {
      throw ValidationFailedError.field('email', BAD_CREDENTIALS);
    }
    if (user.twoFactorConfirmedAt && user.twoFactorSecret) {
      if (!input.twoFactorCode) throw ValidationFailedError.field('two_factor_code', 'A two-factor authentication code is required.');
      if (!(await this.consumeTwoFactorCode(user, input.twoFactorCode))) {
        throw ValidationFailedError.field('two_factor_code', 'The two-factor authentication code is invalid.');
      }
    }

    const provisional = toPrincipal(access);
    let storeId: number | null;
    if (input.storeId !== undefined) {
      const exists = (await this.stores.existingIds([input.storeId])).length === 1;
      if (!exists || !canAccessStore(provisional, input.storeId)) {
        throw ValidationFailedError.field('store_id', 'The selected store id is invalid or not assigned to you.');
      }
      storeId = input.storeId;
    } else {
      storeId = currentStoreId(provisional);
    }

    const issued = await this.tokens.issue(user.id, { name: input.deviceName?.trim() || DEFAULT_DEVICE_NAME, abilities: ['*'], storeId });
    const names = storeId !== null ? await this.stores.names([storeId]) : new Map<number, string>();
    return {
      token: issued.plainText,
      user: {
        id: user.id,
        name: user.name,
        email: user.email,
        role: access.role ? { id: access.role.id, name: access.role.name, slug: access.role.slug } : null,
        store_id: storeId,
        store_name: storeId !== null ? (names.get(storeId) ?? null) : null,
        is_super_admin: provisional.isSuperAdmin,
        has_two_factor: user.twoFactorConfirmedAt !== null,
      },
      permissions: [...provisional.permissions].sort(),
      store_id: storeId,
    };
  }

  async logout(principal: Principal): Promise<void> {
    await this.tokens.revoke(principal.token.id);
  }

  /**
   * GET /auth/me: built once per resolved principal (the token cache keeps the same object for
   * AUTH_CACHE_TTL_MS); the amount limit in the currency of the user's store.
   */
  async me(principal: Principal) {
    let view = meViews.get(principal);
    if (!view) {
      const decimals = await this.stores.moneyDecimals(currentStoreId(principal));
      view = {
        id: principal.userId,
        name: principal.name,
        email: principal.email,
        role: principal.role ? { id: principal.role.id, name: principal.role.name } : null,
        store_id: currentStoreId(principal),
        permissions: [...principal.permissions].sort(),
        discount_limits: {
          max_discount_percent: principal.discountLimits.maxPercentBp / 100,
          max_discount_amount: fromMinor(principal.discountLimits.maxAmount, decimals),
        },
      };
      meViews.set(principal, view);
    }
    return view;
  }

  /** A TOTP code of the user's, accepted once (two-factor-code.ts). */
  consumeTwoFactorCode(user: UserRecord, code: string): Promise<boolean> {
    return consumeTwoFactorCode(this.users, this.twoFactor, user, code);
  }

  /**
   * Starts 2FA enrolment (needs the password, as turning it off does): a new secret, active only
   * after confirm with a valid code. The password is verified outside the transaction, as at login.
   */
  async enableTwoFactor(principal: Principal, password: string): Promise<{ secret: string; otpauth_url: string }> {
    const verifiedHash = await this.checkOwnPassword(principal.userId, password, 'off');
    return this.startTwoFactor(principal.userId, verifiedHash);
  }

  @Transactional()
  private async startTwoFactor(userId: number, verifiedHash: string): Promise<{ secret: string; otpauth_url: string }> {
    const user = await this.stillVerified(userId, verifiedHash, 'off');
    const secret = this.twoFactor.generateSecret();
    await this.users.update(user.id, { twoFactorSecret: this.twoFactor.seal(secret), twoFactorConfirmedAt: null, twoFactorLastStep: null });
    return { secret, otpauth_url: this.twoFactor.otpauthUrl(secret, user.email) };
  }

  @Transactional()
  async confirmTwoFactor(principal: Principal, code: string): Promise<{ has_two_factor: true }> {
    const user = await this.users.findById(principal.userId);
    if (!user?.twoFactorSecret) throw new ConflictError('two_factor_not_started', 'Start two-factor enrolment first.');
    if (user.twoFactorConfirmedAt) throw new ConflictError('two_factor_enabled', 'Two-factor authentication is already enabled.');
    if (!(await this.consumeTwoFactorCode(user, code))) {
      throw ValidationFailedError.field('code', 'The two-factor authentication code is invalid.');
    }
    await this.users.update(user.id, { twoFactorConfirmedAt: new Date() });
    await this.audit.record({ action: 'two_factor.enabled', target: { type: 'user', id: user.id } }, { userId: principal.userId, name: principal.name });
    return { has_two_factor: true };
  }

  /** Turning 2FA off needs the password (verified outside the transaction) and a current code. */
  async disableTwoFactor(principal: Principal, password: string, code: string): Promise<{ has_two_factor: false }> {
    const verifiedHash = await this.checkOwnPassword(principal.userId, password, 'on');
    return this.stopTwoFactor(principal, verifiedHash, code);
  }

  @Transactional()
  private async stopTwoFactor(principal: Principal, verifiedHash: string, code: string): Promise<{ has_two_factor: false }> {
    const user = await this.stillVerified(principal.userId, verifiedHash, 'on');
    if (!(await this.consumeTwoFactorCode(user, code))) {
      throw ValidationFailedError.field('code', 'The two-factor authentication code is invalid.');
    }
    await this.users.update(user.id, { twoFactorSecret: null, twoFactorConfirmedAt: null });
    await this.audit.record({ action: 'two_factor.disabled', target: { type: 'user', id: user.id } }, { userId: principal.userId, name: principal.name });
    return { has_two_factor: false };
  }

  /**
   * Checks the user's own password with no transaction open (see login), once their 2FA state
   * allows the change ('off' to turn it on, 'on' to turn it off); returns the hash it matched.
   */
  private async checkOwnPassword(userId: number, password: string, needs: 'on' | 'off'): Promise<string> {
    const user = await this.users.findById(userId);
    twoFactorStateAllows(user, needs);
    if (!user.passwordHash || !(await this.passwords.verify(user.passwordHash, password))) {
      throw ValidationFailedError.field('password', 'The password is incorrect.');
    }
    return user.passwordHash;
  }

  /** The user read again inside the transaction: same 2FA state and still the verified password. */
  private async stillVerified(userId: number, verifiedHash: string, needs: 'on' | 'off'): Promise<UserRecord> {
    const user = await this.users.findById(userId);
    twoFactorStateAllows(user, needs);
    if (user.passwordHash !== verifiedHash) throw ValidationFailedError.field('password', 'The password is incorrect.');
    return user;
  }
}

function twoFactorStateAllows(user: UserRecord | null, needs: 'on' | 'off'): asserts user is UserRecord {
  if (!user) throw ValidationFailedError.field('user', 'Unknown user.');
  if (needs === 'off' && user.twoFactorConfirmedAt) throw new ConflictError('two_factor_enabled', 'Two-factor authentication is already enabled.');
  if (needs === 'on' && (!user.twoFactorSecret || !user.twoFactorConfirmedAt))
    throw new ConflictError('two_factor_disabled', 'Two-factor authentication is not enabled.');
}
