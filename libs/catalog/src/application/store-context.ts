import { Inject, Injectable, Optional } from '@nestjs/common';
import { NotFoundError, ValidationFailedError } from '@pos/kernel';
import { assertStoreAccess, canAccessStore, currentStoreId, Principal } from '@pos/identity';
import { APP_CONFIG, AppConfig } from '@pos/platform';
import { PaymentMethodRecord, StoreRecord, StoreRepository, WarehouseRecord } from './store.ports';

/**
 * Published by the catalog: "which store (and warehouse) does this request act in, and may the
 * caller act there". Every context resolves stores through it, so the rules live once:
 *  - no store named: the principal's current store (token, default, first assigned); none: 422;
 *  - another store named: 403; an unknown one: 422 on the field;
 *  - a warehouse named must serve the store (its own or a standalone one serving it): else 422.
 */
@Injectable()
export class StoreContext {
  /**
   * Stores, warehouses and payment methods are read on every sale and lookup and change rarely
   * (no API route writes them: seeds, the CLI or the database do): each answer is kept per process
   * for REFERENCE_CACHE_TTL_MS, found rows only, and `invalidate()` forgets them at once.
   */
  private readonly cache = new Map<string, { value: Promise<unknown>; until: number }>();
  private readonly ttlMs: number;

  constructor(
    private readonly stores: StoreRepository,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
  ) {
    this.ttlMs = config?.referenceCacheTtlMs ?? 0;
  }

  /** Forgets every cached store, warehouse and payment method (after they were edited). */
  invalidate(): void {
    this.cache.clear();
  }

  private cached<T>(key: string, load: () => Promise<T>, keep: (value: T) => boolean): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.until > now) return hit.value as Promise<T>;
    if (this.cache.size > 10_000) this.cache.clear();
    const value = load();
    this.cache.set(key, { value, until: now + this.ttlMs });
    value.then(
      (v) => !keep(v) && this.cache.delete(key),
      () => this.cache.delete(key),
    );
    return value;
  }

  private findStore(id: number): Promise<StoreRecord | null> {
    return this.cached(
      `s${id}`,
      () => this.stores.findStore(id),
      (s) => s !== null,
    );
  }

  private findWarehouse(id: number): Promise<WarehouseRecord | null> {
    return this.cached(
      `w${id}`,
      () => this.stores.findWarehouse(id),
      (w) => w !== null,
    );
  }

  /** The store a request acts in (403 for another store, 422 for none or an unknown one). */
  async resolve(principal: Principal, storeId?: number, field = 'store_id'): Promise<StoreRecord> {
    const id = storeId ?? currentStoreId(principal);
    if (id === null) throw ValidationFailedError.field(field, `The ${field} field is required.`);
    assertStoreAccess(principal, id);
    const store = await this.findStore(id);
    if (!store) throw ValidationFailedError.field(field, 'The selected store does not exist.');
    return store;
  }

  /** The store and the warehouse a till sells from: the one named (if it serves the store), else the store's default. */
  async selling(principal: Principal, ctx: { storeId?: number; warehouseId?: number }): Promise<{ store: StoreRecord; warehouseId: number | null }> {
    const store = await this.resolve(principal, ctx.storeId);
    if (ctx.warehouseId === undefined) return { store, warehouseId: store.defaultWarehouseId };
    if (!(await this.serves(ctx.warehouseId, store.id))) throw ValidationFailedError.field('warehouse_id', 'The selected warehouse does not serve this store.');
    return { store, warehouseId: ctx.warehouseId };
  }

  /** Whether a warehouse belongs to or serves (standalone) a store. */
  async serves(warehouseId: number, storeId: number): Promise<boolean> {
    return (await this.storesOfWarehouse(warehouseId)).includes(storeId);
  }

  /** Stores a warehouse belongs to or serves. */
  storesOfWarehouse(warehouseId: number): Promise<number[]> {
    return this.cached(
      `ws${warehouseId}`,
      () => this.stores.storesOfWarehouse(warehouseId),
      (s) => s.length > 0,
    );
  }

  /**
   * An active warehouse the caller may use (its store, or one of the stores it serves, is
   * theirs). Unknown: 422 on the field; another store's: 403 or 404 as the caller asks.
   */
  async requireWarehouse(principal: Principal, warehouseId: number, onOther: 'forbidden' | 'not_found', field = 'warehouse_id'): Promise<WarehouseRecord> {
    const w = await this.findWarehouse(warehouseId);
    if (!w || !w.isActive) throw ValidationFailedError.field(field, 'The selected warehouse does not exist.');
    const stores = await this.storesOfWarehouse(warehouseId);
    if (principal.stores !== 'all' && !stores.some((s) => canAccessStore(principal, s))) {
      if (onOther === 'not_found') throw new NotFoundError('Warehouse');
      assertStoreAccess(principal, stores[0] ?? -1);
    }
    return w;
  }

  /** Whether the caller may see a warehouse (any store it belongs to or serves is theirs). */
  async canSeeWarehouse(principal: Principal, warehouseId: number): Promise<boolean> {
    return principal.stores === 'all' || (await this.storesOfWarehouse(warehouseId)).some((s) => canAccessStore(principal, s));
  }

  /** A store by id with no access check (for views of records the caller may already see). */
  store(id: number): Promise<StoreRecord | null> {
    return this.findStore(id);
  }

  warehouse(id: number): Promise<WarehouseRecord | null> {
    return this.findWarehouse(id);
  }

  /** Active payment methods offered in a store. */
  async paymentMethods(storeId: number): Promise<PaymentMethodRecord[]> {
    const methods = () => this.stores.paymentMethodsByStore([storeId]).then((m) => m.get(storeId) ?? []);
    return this.cached(`p${storeId}`, methods, (m) => m.length > 0);
  }

  /**
   * Every live store with its active warehouses (own first, then the standalone ones serving it),
   * read only: for callers that resolve many requests against the same stores (reports cache it).
   */
  async directory(): Promise<{ store: StoreRecord; warehouses: WarehouseRecord[] }[]> {
    const stores = (await this.stores.listStores('all', { page: 1, perPage: 100_000 })).items;
    const warehouses = await this.stores.warehousesByStore(
      stores.map((s) => s.id),
      true,
    );
    return stores.map((store) => ({ store, warehouses: warehouses.get(store.id) ?? [] }));
  }

  /** Names of stores and warehouses, for views. */
  async names(storeIds: number[], warehouseIds: number[]): Promise<{ stores: Map<number, string>; warehouses: Map<number, string> }> {
    const [s, w] = await Promise.all([
      Promise.all([...new Set(storeIds)].map(async (id) => [id, (await this.findStore(id))?.name ?? ''] as const)),
      Promise.all([...new Set(warehouseIds)].map(async (id) => [id, (await this.findWarehouse(id))?.name ?? ''] as const)),
    ]);
    return { stores: new Map(s), warehouses: new Map(w) };
  }
}
