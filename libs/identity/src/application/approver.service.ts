import { Injectable } from '@nestjs/common';
import { Propagation, TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Clock } from '@pos/kernel';
import { canAccessStore, hasPermission } from '../domain/principal';
import { PasswordHasher, TwoFactorProvider, UserRepository } from './ports';
import { toPrincipal } from './token.service';

export interface ApproverCredentials {
  email: string;
  /** The approver's PIN, or their password (plus their TOTP code when 2FA is on). */
  pin?: string;
  password?: string;
  twoFactorCode?: string;
}

/** A verified approver: who, and the limits they may grant. */
export interface Approver {
  userId: number;
  name: string;
  discountLimits: { maxPercentBp: number; maxAmount: number };
}

/** After this many failed verifications in a row, the approver is locked out for LOCK_MS. */
export const APPROVER_MAX_FAILURES = 5;
const LOCK_MS = 15 * 60_000;

/**
 * Published by identity: checks a manager's credentials at a till on behalf of another user's
 * session (discount approvals). It answers only "a valid approver for this permission and store"
 * or null, whatever the reason (unknown email, wrong PIN or password, missing or wrong 2FA code,
 * not allowed, another store, locked out), so it cannot be used to test passwords. A password
 * alone never passes for a user with 2FA: their PIN or password + code does. Failures are counted
 * per approver in the database (every replica agrees) and lock the approver out after
 * APPROVER_MAX_FAILURES; the count is written even when the caller's transaction rolls back.
 */
@Injectable()
export class ApproverService {
  private dummyHash?: Promise<string>;

  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly twoFactor: TwoFactorProvider,
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly clock: Clock,
  ) {}

  async verifyApprover(credentials: ApproverCredentials, required: { permission: string; storeId: number }): Promise<Approver | null> {
    const user = await this.users.findByEmail(credentials.email.trim().toLowerCase());
    const secret = credentials.pin ?? credentials.password;
    const hash = credentials.pin !== undefined ? user?.pinHash : user?.passwordHash;
    // One hash verification whatever happens, so timing does not tell which emails exist.
    const secretOk = secret !== undefined && (await this.hasher.verify(hash ?? (await (this.dummyHash ??= this.hasher.hash('not-a-real-secret'))), secret));
    if (!user || !user.isActive || user.isApiApplication) return null;
    const now = this.clock.now();
    if (user.approvalLockedUntil && user.approvalLockedUntil > now) return null;
    let ok = secretOk && !!hash;
    if (ok && credentials.pin === undefined && user.twoFactorConfirmedAt && user.twoFactorSecret) {
      ok = !!credentials.twoFactorCode && this.twoFactor.verify(this.twoFactor.unseal(user.twoFactorSecret), credentials.twoFactorCode);
    }
    if (!ok) {
      await this.recordFailure(user.id, user.approvalFailures, now);
      return null;
    }
    if (user.approvalFailures > 0) await this.outside(() => this.users.update(user.id, { approvalFailures: 0, approvalLockedUntil: null }));
    const access = await this.users.loadAccess(user.id);
    if (!access) return null;
    const principal = toPrincipal(access);
    if (!hasPermission(principal, required.permission) || !canAccessStore(principal, required.storeId)) return null;
    return { userId: principal.userId, name: principal.name, discountLimits: principal.discountLimits };
  }

  private async recordFailure(userId: number, failures: number, now: Date): Promise<void> {
    const next = failures + 1;
    await this.outside(() =>
      this.users.update(userId, {
        approvalFailures: next >= APPROVER_MAX_FAILURES ? 0 : next,
        approvalLockedUntil: next >= APPROVER_MAX_FAILURES ? new Date(now.getTime() + LOCK_MS) : null,
      }),
    );
  }

  /**
   * Its own transaction: a failure must be counted even when the request's work rolls back.
   * (Callers do not hold a transaction: on SQLite a nested one would wait for the outer.)
   */
  private outside<T>(work: () => Promise<T>): Promise<T> {
    return this.txHost.withTransaction(Propagation.RequiresNew, work);
  }
}
