import { ForbiddenError } from '@pos/kernel';
import { tokenHasAbility } from './permissions';

/** Who is calling: the authenticated user and the token they presented. */
export interface Principal {
  userId: number;
  name: string;
  email: string;
  role: { id: number; name: string; slug: string } | null;
  isSuperAdmin: boolean;
  isApiApplication: boolean;
  permissions: ReadonlySet<string>;
  /** Store ids the user may act on; 'all' for super admins and unrestricted applications. */
  stores: readonly number[] | 'all';
  defaultStoreId: number | null;
  discountLimits: { maxPercentBp: number; maxAmount: number };
  /** The token presented; its name is the device label given at login (offline sync keys devices by it). */
  token: {
    id: number;
    name: string;
    hash: string;
    abilities: readonly string[];
    storeId: number | null;
    expiresAt: Date | null;
    /** API application tokens: from this moment on, responses warn that the token expires soon (APP_TOKEN_EXPIRY_WARNING_DAYS). */
    warnFrom?: Date;
  };
}

export function hasPermission(p: Principal, permission: string): boolean {
  return p.isSuperAdmin || p.permissions.has(permission);
}

export function hasAbility(p: Principal, ability: string): boolean {
  return tokenHasAbility(p.token.abilities, ability);
}

export function canAccessStore(p: Principal, storeId: number): boolean {
  return p.stores === 'all' || p.stores.includes(storeId);
}

/** A request that names another store (a filter, a body field): 403. */
export function assertStoreAccess(p: Principal, storeId: number): void {
  if (!canAccessStore(p, storeId)) throw new ForbiddenError('You do not have access to this store.', 'store_forbidden');
}

/** The store the request acts in: the token's store, the user's default, or the first assigned. */
export function currentStoreId(p: Principal): number | null {
  if (p.token.storeId !== null && canAccessStore(p, p.token.storeId)) return p.token.storeId;
  if (p.defaultStoreId !== null && canAccessStore(p, p.defaultStoreId)) return p.defaultStoreId;
  return p.stores === 'all' ? p.defaultStoreId : (p.stores[0] ?? null);
}

/** The operator at the CLI (`app:create`, `token:issue`): every permission, store and ability. */
export const OPERATOR: Principal = Object.freeze({
  userId: 0,
  name: 'operator',
  email: '',
  role: null,
  isSuperAdmin: true,
  isApiApplication: false,
  permissions: new Set<string>(),
  stores: 'all',
  defaultStoreId: null,
  discountLimits: { maxPercentBp: 0, maxAmount: 0 },
  token: { id: 0, name: 'cli', hash: '', abilities: ['*'], storeId: null, expiresAt: null },
});
