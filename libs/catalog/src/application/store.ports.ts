import { Page, PageRequest } from '@pos/kernel';
import { PaymentMethodEntity, StoreEntity, WarehouseEntity } from '../infrastructure/store.entities';

/** Which stores a caller may see: all, or a list of ids. */
export type StoreScope = readonly number[] | 'all';

export interface WarehouseFilter {
  scope: StoreScope;
  storeId?: number;
  standaloneOnly?: boolean;
  /** With storeId: also the standalone warehouses that serve it. */
  includeServing?: boolean;
  activeOnly?: boolean;
}

export abstract class StoreRepository {
  abstract listStores(scope: StoreScope, page: PageRequest): Promise<Page<StoreEntity>>;
  abstract findStore(id: number): Promise<StoreEntity | null>;
  abstract warehousesByStore(storeIds: number[], includeServing: boolean): Promise<Map<number, WarehouseEntity[]>>;
  abstract paymentMethodsByStore(storeIds: number[]): Promise<Map<number, PaymentMethodEntity[]>>;
  abstract listWarehouses(filter: WarehouseFilter, page: PageRequest): Promise<Page<WarehouseEntity>>;
  abstract findWarehouse(id: number): Promise<WarehouseEntity | null>;
  /** Stores a warehouse belongs to or serves (standalone). */
  abstract storesOfWarehouse(warehouseId: number): Promise<number[]>;
  abstract listPaymentMethods(storeIds: StoreScope, page: PageRequest): Promise<Page<PaymentMethodEntity>>;
  abstract findPaymentMethod(id: number): Promise<PaymentMethodEntity | null>;
}
