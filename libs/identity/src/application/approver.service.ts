import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock, RateLimitedError } from '@pos/kernel';
import { canAccessStore, hasPermission } from '../domain/principal';
import { ApprovalAttemptKey, ApprovalAttemptRepository, PasswordHasher, TwoFactorProvider, UserRepository } from './ports';
import { PasswordCheckGate, PasswordChecksBusyError } from './password-check.gate';
import { toPrincipal } from './token.service';
import { consumeTwoFactorCode } from './two-factor-code';

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

/** Failures of one cashier against one approver within a window that lock that approver for that cashier. */
export const APPROVER_MAX_FAILURES = 5;
/** Failed approvals a cashier may make within a window, whichever approvers they name; past them: 429. */
export const APPROVAL_CASHIER_MAX_FAILURES = 10;
/**
 * Failed approvals from one client address within a window, whichever cashiers send them; past
 * them: 429. Above a cashier's own budget (tills of a shop share an address), it bounds guessing
 * by someone holding several cashiers' tokens.
 */
export const APPROVAL_ADDRESS_MAX_FAILURES = 30;
/** The counting window: it opens at a key's first failure; once full, its key is locked until it ends. */
export const APPROVAL_WINDOW_MS = 15 * 60_000;

/** The cashier's (or their address's) budget of failed approvals is spent: 429 until its window ends. */
export class ApprovalAttemptsExhaustedError extends RateLimitedError {
  constructor(retryAfterSeconds: number, from: 'user' | 'address' = 'user') {
    super('approval_attempts_exhausted', `Too many failed approval attempts from this ${from}; try again later.`, retryAfterSeconds);
  }
}

/**
 * Published by identity: checks a manager's credentials at a till on behalf of another user's
 * session (discount approvals). It answers only "a valid approver for this permission and store"
 * or null, whatever the reason (unknown email, wrong PIN or password, missing or wrong 2FA code,
 * not allowed, another store, locked out), so it cannot be used to test passwords. A password
 * alone never passes for a user with 2FA: their PIN or password + code does, the code accepted
 * once (the same record as login's: a code used here cannot be used again, here or at login).
 *
 * Failures are counted in the database (every replica agrees) per requesting cashier, never per
 * approver alone, so one cashier's guesses cannot lock a manager out for everyone:
 * - the cashier's budget: APPROVAL_CASHIER_MAX_FAILURES failed requests per window, whichever
 *   emails they name; past it ApprovalAttemptsExhaustedError (429), before anything is checked;
 * - the address's budget (when the caller names the client address): APPROVAL_ADDRESS_MAX_FAILURES
 *   failed requests per window from it, whichever cashiers send them; past it the same 429;
 * - the approver's lock for that cashier: after APPROVER_MAX_FAILURES of that cashier's failures
 *   against one approver, that approver is refused to that cashier (the same null) until the
 *   window ends; their right credentials clear it.
 * A request takes its slot in both counters before the credentials are checked (one conditional
 * UPDATE each), so requests sent at once are each counted and no more are checked than allowed;
 * a request that ends with an approver gives its cashier and address slots back. Nothing here
 * touches the approver's own login (the HTTP login tier counts logins only): their guesses cost
 * the cashier, never the manager.
 */
@Injectable()
export class ApproverService {
  private dummyHash?: Promise<string>;

  constructor(
    private readonly users: UserRepository,
    private readonly attempts: ApprovalAttemptRepository,
    private readonly hasher: PasswordHasher,
    private readonly passwords: PasswordCheckGate,
    private readonly twoFactor: TwoFactorProvider,
    private readonly clock: Clock,
  ) {}

  /** `fromAddress`: the client address the request came from (its budget of failures is counted too). */
  async verifyApprover(
    credentials: ApproverCredentials,
    required: { permission: string; storeId: number },
    requestedBy: number,
    fromAddress?: string,
  ): Promise<Approver | null> {
    const budget = { cashierId: requestedBy, approverId: 0 };
    if (!(await this.take(budget, APPROVAL_CASHIER_MAX_FAILURES))) throw await this.exhausted(budget, 'user');
    const address = fromAddress === undefined ? null : addressKey(fromAddress);
    if (address && !(await this.take(address, APPROVAL_ADDRESS_MAX_FAILURES))) {
      await this.attempts.giveBack(budget);
      throw await this.exhausted(address, 'address');
    }
    const budgets = address ? [budget, address] : [budget];
    const user = await this.users.findByEmail(credentials.email.trim().toLowerCase());
    const pair = user ? { cashierId: requestedBy, approverId: user.id } : null;
    const open = pair !== null && (await this.take(pair, APPROVER_MAX_FAILURES));
    const secret = credentials.pin ?? credentials.password;
    const hash = credentials.pin !== undefined ? user?.pinHash : user?.passwordHash;
    // One hash verification whatever happens, so timing does not tell which emails exist.
    let secretOk: boolean;
    try {
      secretOk = secret !== undefined && (await this.passwords.verify(hash ?? (await (this.dummyHash ??= this.hasher.hash('not-a-real-secret'))), secret));
    } catch (error) {
      // Refused before anything was checked (the process is verifying as many as it allows): not a failure.
      if (error instanceof PasswordChecksBusyError) {
        for (const key of budgets) await this.attempts.giveBack(key);
        if (open && pair) await this.attempts.giveBack(pair);
      }
      throw error;
    }
    if (!user || !pair || !open || !user.isActive || user.isApiApplication) return null;
    let ok = secretOk && !!hash;
    if (ok && credentials.pin === undefined && user.twoFactorConfirmedAt && user.twoFactorSecret) {
      // Accepted once, as at login: a code typed at the till cannot approve again nor log in.
      ok = !!credentials.twoFactorCode && (await consumeTwoFactorCode(this.users, this.twoFactor, user, credentials.twoFactorCode));
    }
    if (!ok) return null;
    await this.attempts.clear(pair);
    const access = await this.users.loadAccess(user.id);
    if (!access) return null;
    const principal = toPrincipal(access);
    if (!hasPermission(principal, required.permission) || !canAccessStore(principal, required.storeId)) return null;
    for (const key of budgets) await this.attempts.giveBack(key);
    return { userId: principal.userId, name: principal.name, discountLimits: principal.discountLimits };
  }

  private take(key: ApprovalAttemptKey, max: number): Promise<boolean> {
    return this.attempts.take(key, max, APPROVAL_WINDOW_MS, this.clock.now().getTime());
  }

  private async exhausted(key: ApprovalAttemptKey, from: 'user' | 'address'): Promise<ApprovalAttemptsExhaustedError> {
    const end = await this.attempts.windowEnd(key);
    return new ApprovalAttemptsExhaustedError(Math.max(1, Math.ceil(((end ?? 0) - this.clock.now().getTime()) / 1000)), from);
  }
}

/**
 * An address's counter: cashier 0 (no user has id 0) and a 31-bit digest of the address as the
 * "approver" (a positive INT on every database; two addresses sharing a digest only share a budget).
 */
function addressKey(address: string): ApprovalAttemptKey {
  const digest = createHash('sha256').update(address).digest().readUInt32BE(0) & 0x7fffffff;
  return { cashierId: 0, approverId: digest || 1 };
}
