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
  /** Failed approver verifications in a row, and until when approvals are refused after too many. */
  approvalFailures: number;
  approvalLockedUntil: Date | null;
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
        | 'approvalFailures'
        | 'approvalLockedUntil'
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
  abstract revoke(tokenId: number, at: Date): Promise<void>;
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
