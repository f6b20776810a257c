import { Injectable } from '@nestjs/common';
import { ChangeRead, NotFoundError, Page, PageRequest } from '@pos/kernel';
import { canAccessStore, Principal } from '@pos/identity';
import { StoreContext } from './store-context';
import { StoreRepository } from './store.ports';
import { paymentMethodView, PaymentMethodView, storeView, StoreView, warehouseView, WarehouseView } from './store-views';

export interface StoreListOptions {
  withWarehouses?: boolean;
  withPaymentMethods?: boolean;
  /** Include the standalone warehouses serving each store in `warehouses`. */
  withStandalone?: boolean;
  /** Change mode (issue 26): stores after the position in (updated_at, id) order up to the horizon. */
  change?: ChangeRead;
}

/**
 * Stores, warehouses and payment methods as the caller may see them: only assigned stores
 * (super admins and unrestricted applications: all). A store or warehouse of another store
 * fetched by id is 404; a filter naming another store is 403.
 */
@Injectable()
export class StoreService {
  constructor(
    private readonly stores: StoreRepository,
    private readonly context: StoreContext,
  ) {}

  async list(principal: Principal, page: PageRequest, options: StoreListOptions = {}): Promise<Page<StoreView>> {
    const result = await this.stores.listStores(principal.stores, page, options.change);
    const ids = result.items.map((s) => s.id);
    const [warehouses, methods] = await Promise.all([
      options.withWarehouses ? this.stores.warehousesByStore(ids, options.withStandalone ?? false) : undefined,
      options.withPaymentMethods ? this.stores.paymentMethodsByStore(ids) : undefined,
    ]);
    return result.map((s) => ({
      ...storeView(s),
      ...(warehouses ? { warehouses: (warehouses.get(s.id) ?? []).map(warehouseView) } : {}),
      ...(methods ? { payment_methods: (methods.get(s.id) ?? []).map(paymentMethodView) } : {}),
    }));
  }

  async show(principal: Principal, id: number, options: StoreListOptions = { withWarehouses: true, withPaymentMethods: true }): Promise<StoreView> {
    const store = await this.stores.findStore(id);
    if (!store || !canAccessStore(principal, id)) throw new NotFoundError('Store');
    const [warehouses, methods] = await Promise.all([
      options.withWarehouses ? this.stores.warehousesByStore([id], options.withStandalone ?? true) : undefined,
      options.withPaymentMethods ? this.stores.paymentMethodsByStore([id]) : undefined,
    ]);
    return {
      ...storeView(store),
      ...(warehouses ? { warehouses: (warehouses.get(id) ?? []).map(warehouseView) } : {}),
      ...(methods ? { payment_methods: (methods.get(id) ?? []).map(paymentMethodView) } : {}),
    };
  }

  /** Active warehouses of a store, optionally with the standalone ones serving it. */
  async storeWarehouses(principal: Principal, storeId: number, includeStandalone: boolean): Promise<WarehouseView[]> {
    const store = await this.stores.findStore(storeId);
    if (!store || !canAccessStore(principal, storeId)) throw new NotFoundError('Store');
    return ((await this.stores.warehousesByStore([storeId], includeStandalone)).get(storeId) ?? []).map(warehouseView);
  }

  async warehouses(
    principal: Principal,
    filter: { storeId?: number; standaloneOnly?: boolean; includeServing?: boolean; activeOnly?: boolean; change?: ChangeRead },
    page: PageRequest,
  ): Promise<Page<WarehouseView>> {
    if (filter.storeId !== undefined) await this.context.requireStoreFilter(principal, filter.storeId);
    return (await this.stores.listWarehouses({ scope: principal.stores, ...filter }, page)).map(warehouseView);
  }

  async warehouse(principal: Principal, id: number): Promise<WarehouseView & { store_ids: number[] }> {
    const w = await this.stores.findWarehouse(id);
    const storeIds = w ? await this.stores.storesOfWarehouse(id) : [];
    if (!w || (principal.stores !== 'all' && !storeIds.some((s) => canAccessStore(principal, s)))) throw new NotFoundError('Warehouse');
    return { ...warehouseView(w), store_ids: storeIds };
  }

  async paymentMethods(principal: Principal, page: PageRequest): Promise<Page<PaymentMethodView>> {
    return (await this.stores.listPaymentMethods(principal.stores, page)).map(paymentMethodView);
  }

  async paymentMethod(id: number): Promise<PaymentMethodView> {
    const m = await this.stores.findPaymentMethod(id);
    if (!m) throw new NotFoundError('Payment method');
    return paymentMethodView(m);
  }
}
