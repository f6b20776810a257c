/** Reference data the pricing context owns: tax classes and rates, currencies, price books. */
export interface TaxClassRecord {
  id: number;
  name: string;
  code: string;
}

export interface TaxRateRecord {
  id: number;
  taxClassId: number;
  storeId: number | null;
  name: string;
  rateBp: number;
  isActive: boolean;
}

export interface CurrencyRecord {
  id: number;
  code: string;
  name: string;
  symbol: string;
  decimals: number;
  isBase: boolean;
  isActive: boolean;
  updatedAt: Date;
}

export interface PriceBookRecord {
  id: number;
  name: string;
  code: string;
  currencyCode: string;
  priority: number;
  isActive: boolean;
  validFrom: Date | null;
  validTo: Date | null;
  updatedAt: Date;
}

export interface PriceBookEntryRecord {
  id: number;
  priceBookId: number;
  itemId: number;
  price: number;
  minQuantity: number;
}
