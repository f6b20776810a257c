import { PaymentMethodRecord, StoreRecord, WarehouseRecord } from './store.ports';

export interface WarehouseView {
  id: number;
  name: string;
  code: string;
  store_id: number | null;
  is_standalone: boolean;
  address: string | null;
  is_active: boolean;
  updated_at: string;
}

export interface PaymentMethodView {
  id: number;
  name: string;
  code: string;
  type: string;
  is_active: boolean;
  sort_order: number;
}

export interface StoreView {
  id: number;
  name: string;
  code: string;
  address: string | null;
  phone: string | null;
  email: string | null;
  currency_code: string;
  timezone: string;
  prices_include_tax: boolean;
  allow_negative_stock: boolean;
  default_warehouse_id: number | null;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  warehouses?: WarehouseView[];
  payment_methods?: PaymentMethodView[];
}

export function storeView(s: StoreRecord): StoreView {
  return {
    id: s.id,
    name: s.name,
    code: s.code,
    address: s.address,
    phone: s.phone,
    email: s.email,
    currency_code: s.currencyCode,
    timezone: s.timezone,
    prices_include_tax: s.pricesIncludeTax,
    allow_negative_stock: s.allowNegativeStock,
    default_warehouse_id: s.defaultWarehouseId,
    is_active: s.isActive,
    created_at: s.createdAt.toISOString(),
    updated_at: s.updatedAt.toISOString(),
  };
}

export function warehouseView(w: WarehouseRecord): WarehouseView {
  return {
    id: w.id,
    name: w.name,
    code: w.code,
    store_id: w.storeId,
    is_standalone: w.storeId === null,
    address: w.address,
    is_active: w.isActive,
    updated_at: w.updatedAt.toISOString(),
  };
}

export function paymentMethodView(p: PaymentMethodRecord): PaymentMethodView {
  return { id: p.id, name: p.name, code: p.code, type: p.type, is_active: p.isActive, sort_order: p.sortOrder };
}
