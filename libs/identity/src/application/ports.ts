import { Page, PageRequest } from '@pos/kernel';

/**
 * Ports of the identity context. Abstract classes double as Nest injection tokens; the TypeORM
 * implementations live in infrastructure/ and their entities implement these records.
 */
export interface UserRecord {
  id: number;
  name: string;
  email: string;
  passwordHash: string | null;
  pinHash: string | null;
  roleId: number | null;
  defaultStoreId: number | null;
  isApiApplication: boolean;
  isActive: boolean;
  twoFactorSecret: string | null;
  twoFactorConfirmedAt: Date | null;
  /** The last TOTP time step accepted for this user: a code is good once (no replay within its step). */
  twoFactorLastStep: number | null;
  maxDiscountPercentBp: number | null;
  maxDiscountAmount: number | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface RoleRecord {
  id: number;
  name: string;
  slug: string;
  isSuperAdmin: boolean;
  maxDiscountPercentBp: number;
  maxDiscountAmount: number;
}

export interface TokenRecord {
  id: number;
  userId: number;
  name: string;
  tokenHash: string;
  abilities: string[];
  storeId: number | null;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

export interface UserAccess {
  user: UserRecord;
  role: RoleRecord | null;
  permissions: string[];
  storeIds: number[];
}

export interface NewUser {
  name: string;
  email: string;
  passwordHash: string | null;
  roleId: number | null;
  defaultStoreId: number | null;
  isApiApplication: boolean;
}

export abstract class UserRepository {
  abstract findByEmail(email: string): Promise<UserRecord | null>;
  abstract findById(id: number): Promise<UserRecord | null>;
  abstract loadAccess(userId: number): Promise<UserAccess | null>;
  abstract create(user: NewUser, permissions: string[], storeIds: number[]): Promise<UserRecord>;
  abstract update(
    id: number,
    changes: Partial<
      Pick<
        UserRecord,
        | 'passwordHash'
        | 'pinHash'
        | 'twoFactorSecret'
        | 'twoFactorConfirmedAt'
        | 'twoFactorLastStep'
        | 'name'
        | 'roleId'
        | 'defaultStoreId'
        | 'maxDiscountPercentBp'
        | 'maxDiscountAmount'
        | 'isActive'
      >
    >,
  ): Promise<void>;
  abstract setStores(userId: number, storeIds: number[]): Promise<void>;
  abstract roleBySlug(slug: string): Promise<RoleRecord | null>;
  abstract listApplications(page: PageRequest): Promise<Page<UserAccess>>;
  /** Every API application (they are few: machine accounts), for scope filtering. */
  abstract allApplications(): Promise<UserAccess[]>;
  /**
   * Records `step` as the user's last accepted TOTP step if it is later than the one recorded;
   * false when it is not (the code was already used). Atomic: one conditional UPDATE.
   */
  abstract claimTwoFactorStep(userId: number, step: number): Promise<boolean>;
}

/**
 * Whose failed approvals a counter holds: a requesting cashier's own budget across approvers
 * (`approverId` 0), one approver for one cashier (that approver's lock for that cashier), or a
 * client address's budget across cashiers (`cashierId` 0, `approverId` a digest of the address).
 */
export interface ApprovalAttemptKey {
  cashierId: number;
  approverId: number;
}

/**
 * Counters of failed discount-approval verifications (ApproverService). A counter holds at most
 * `max` failures in a window of `windowMs` that opens at its first failure; a request takes its
 * slot before it is checked, so however many arrive at once no more than `max` are checked.
 */
export abstract class ApprovalAttemptRepository {
  /** Takes one slot of the key's window, atomically (a window that has ended starts over); false when none is left. */
  abstract take(key: ApprovalAttemptKey, max: number, windowMs: number, nowMs: number): Promise<boolean>;
  /** Gives back a slot taken by a request that did not fail. */
  abstract giveBack(key: ApprovalAttemptKey): Promise<void>;
  /** Clears the key's failures (the approver's right credentials). */
  abstract clear(key: ApprovalAttemptKey): Promise<void>;
  /** When the key's current window ends (epoch ms), null without one. */
  abstract windowEnd(key: ApprovalAttemptKey): Promise<number | null>;
}

export interface NewToken {
  userId: number;
  name: string;
  tokenHash: string;
  abilities: string[];
  storeId: number | null;
  expiresAt: Date | null;
}

export abstract class TokenRepository {
  abstract insert(token: NewToken): Promise<TokenRecord>;
  abstract findByHash(hash: string): Promise<TokenRecord | null>;
  abstract findForUser(userId: number, tokenId: number): Promise<TokenRecord | null>;
  abstract listForUser(userId: number): Promise<TokenRecord[]>;
  /** Revokes a token not revoked yet; false when it already was (nothing changed). */
  abstract revoke(tokenId: number, at: Date): Promise<boolean>;
  /** Revokes every token of a user not revoked yet (expired ones too: harmless); how many it revoked. */
  abstract revokeAllOf(userId: number, at: Date): Promise<number>;
  abstract touch(tokenId: number, at: Date): Promise<void>;
}

export abstract class PasswordHasher {
  abstract hash(plain: string): Promise<string>;
  abstract verify(hash: string, plain: string): Promise<boolean>;
}

/** Store names and existence, answered by the catalog context. */
export abstract class StoreDirectory {
  abstract names(ids: number[]): Promise<Map<number, string>>;
  abstract existingIds(ids: number[]): Promise<number[]>;
  /**
   * The decimals of the currency a user's amounts (discount limits) are read in: their store's
   * currency, or the base currency when they have no store. Money has no default scale.
   */
  abstract moneyDecimals(storeId: number | null): Promise<number>;
}

/** TOTP (RFC 6238) and secret sealing; implemented with otpauth + AES-GCM. */
export abstract class TwoFactorProvider {
  abstract generateSecret(): string;
  abstract otpauthUrl(secret: string, account: string): string;
  abstract verify(secret: string, code: string): boolean;
  /** The RFC 6238 time step a valid code belongs to (within the drift window), else null. */
  abstract verifyStep(secret: string, code: string): number | null;
  abstract seal(secret: string): string;
  abstract unseal(sealed: string): string;
}
