import { ChangeRead, Page, PageRequest } from '@pos/kernel';

export interface StoreRecord {
  id: number;
  name: string;
  code: string;
  address: string | null;
  phone: string | null;
  email: string | null;
  currencyCode: string;
  timezone: string;
  pricesIncludeTax: boolean;
  allowNegativeStock: boolean;
  defaultWarehouseId: number | null;
  receiptHeader: string | null;
  receiptFooter: string | null;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface WarehouseRecord {
  id: number;
  storeId: number | null;
  name: string;
  code: string;
  address: string | null;
  isActive: boolean;
  updatedAt: Date;
}

export interface PaymentMethodRecord {
  id: number;
  name: string;
  code: string;
  type: string;
  isActive: boolean;
  sortOrder: number;
}

/** Which stores a caller may see: all, or a list of ids. */
export type StoreScope = readonly number[] | 'all';

export interface WarehouseFilter {
  scope: StoreScope;
  storeId?: number;
  standaloneOnly?: boolean;
  /** With storeId: also the standalone warehouses that serve it. */
  includeServing?: boolean;
  activeOnly?: boolean;
  /** Change mode (issue 26): warehouses after the position in (updated_at, id) order up to the horizon, inactive ones included. */
  change?: ChangeRead;
}

export abstract class StoreRepository {
  /** `change`: change mode (issue 26), stores after the position in (updated_at, id) order up to the horizon. */
  abstract listStores(scope: StoreScope, page: PageRequest, change?: ChangeRead): Promise<Page<StoreRecord>>;
  abstract findStore(id: number): Promise<StoreRecord | null>;
  abstract warehousesByStore(storeIds: number[], includeServing: boolean): Promise<Map<number, WarehouseRecord[]>>;
  abstract paymentMethodsByStore(storeIds: number[]): Promise<Map<number, PaymentMethodRecord[]>>;
  abstract listWarehouses(filter: WarehouseFilter, page: PageRequest): Promise<Page<WarehouseRecord>>;
  abstract findWarehouse(id: number): Promise<WarehouseRecord | null>;
  /** Stores a warehouse belongs to or serves (standalone). */
  abstract storesOfWarehouse(warehouseId: number): Promise<number[]>;
  abstract listPaymentMethods(storeIds: StoreScope, page: PageRequest): Promise<Page<PaymentMethodRecord>>;
  abstract findPaymentMethod(id: number): Promise<PaymentMethodRecord | null>;
}
