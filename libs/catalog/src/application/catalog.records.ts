/** Persistence records of the catalog context (entities in infrastructure implement them). */
export interface CategoryRecord {
  id: number;
  parentId: number | null;
  name: string;
  slug: string | null;
  description: string | null;
  isActive: boolean;
  sortOrder: number;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface ItemRecord {
  id: number;
  sku: string;
  name: string;
  description: string | null;
  categoryId: number | null;
  basePrice: number;
  cost: number;
  taxClassId: number | null;
  baseUnit: string;
  isActive: boolean;
  isSerialTracked: boolean;
  reorderLevel: number;
  reorderQuantity: number;
  /** 1 when created, +1 on every write of the row (If-Match on PUT compares it). */
  version: number;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface ItemUnitRecord {
  id: number;
  itemId: number;
  name: string;
  factor: number;
  price: number | null;
}

export interface ItemBarcodeRecord {
  id: number;
  itemId: number;
  barcode: string;
  itemUnitId: number | null;
}

export interface StockLevelRecord {
  id: number;
  itemId: number;
  warehouseId: number;
  quantity: number;
  reorderLevel: number | null;
  updatedAt: Date;
}

export interface StockMovementRecord {
  id: number;
  itemId: number;
  warehouseId: number;
  type: string;
  quantity: number;
  balanceAfter: number;
  unitCost: number | null;
  referenceType: string | null;
  referenceId: string | null;
  userId: number | null;
  notes: string | null;
  createdAt: Date;
}

export interface SerialNumberRecord {
  id: number;
  itemId: number;
  warehouseId: number | null;
  serial: string;
  status: string;
  saleId: number | null;
}
