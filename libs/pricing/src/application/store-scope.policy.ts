import { Injectable } from '@nestjs/common';
import { ForbiddenError, NotFoundError } from '@pos/kernel';
import { assertStoreAccess, canAccessStore, Principal } from '@pos/identity';
import { StoreContext } from '@pos/catalog';

/**
 * Store scoping of what applies in a set of stores: rules, bundles and price books, each with
 * its store ids, or none for every store (chain-wide). A caller limited to some stores sees such
 * a record when it applies in at least one of them (chain-wide ones: everybody), but changing one,
 * or creating one, needs every store it applies in (chain-wide: every live store), since it
 * changes prices there. So a manager of one store prices their store and no other.
 */
@Injectable()
export class StoreScopePolicy {
  constructor(private readonly stores: StoreContext) {}

  /** Whether the record shows to the caller: chain-wide, or applying in one of their stores. */
  static visible(principal: Principal, storeIds: readonly number[] | undefined): boolean {
    return !storeIds?.length || storeIds.some((s) => canAccessStore(principal, s));
  }

  /** Whether every store the record applies in is the caller's (chain-wide: every live store). */
  async mayChange(principal: Principal, storeIds: readonly number[] | undefined): Promise<boolean> {
    if (principal.stores === 'all') return true;
    if (storeIds?.length) return storeIds.every((s) => canAccessStore(principal, s));
    return (await this.stores.directory()).every(({ store }) => canAccessStore(principal, store.id));
  }

  /** A body naming the stores a record is to apply in: 403 for a store not the caller's, and for none (every store) unless every store is theirs. */
  async assertMayApplyIn(principal: Principal, storeIds: readonly number[] | undefined): Promise<void> {
    for (const s of storeIds ?? []) assertStoreAccess(principal, s);
    if (!(await this.mayChange(principal, storeIds)))
      throw new ForbiddenError('Only a user with access to every store may change what applies in every store.', 'store_forbidden');
  }

  /** An existing record the caller is to change: 404 when they cannot see it, 403 when it also applies in a store not theirs. */
  async assertMayChange(principal: Principal, storeIds: readonly number[] | undefined, what: string): Promise<void> {
    if (!StoreScopePolicy.visible(principal, storeIds)) throw new NotFoundError(what);
    await this.assertMayApplyIn(principal, storeIds);
  }
}
