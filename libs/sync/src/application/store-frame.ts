import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { fromMinor } from '@pos/kernel';
import { hasPermission, Principal } from '@pos/identity';
import { paymentMethodView, StoreContext, StoreRecord, StoreService } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import {
  bundleViewInCurrency,
  BundleService,
  CurrencyDecimals,
  PricingRuleService,
  ReferenceService,
  ruleViewInCurrency,
  TaxAndCurrencyService,
} from '@pos/pricing';

/** The store a download is for, with what every page of it needs. */
export interface StoreFrame {
  store: StoreRecord;
  /** Decimals of the store's currency: every amount of the download is in them. */
  decimals: number;
  warehouseIds: number[];
  priceBookIds: number[];
  /** Tax rate (percent, e.g. 8.25) of each tax class in this store. */
  taxRates: Map<number, number>;
}

export type SyncReference = Awaited<ReturnType<StoreFrames['reference']>>;

/**
 * Reads, through the owning contexts' published use cases, the store a terminal sells in and
 * the small reference sets it needs whole (settings, discount limits, payment methods, tax,
 * customer groups, price books, active pricing rules and bundles). These sets are sent in full
 * and replace the device's copy: they are small, and some of their links (payment methods or
 * price books of a store) carry no timestamps a change feed could follow.
 */
@Injectable()
export class StoreFrames {
  constructor(
    private readonly stores: StoreContext,
    private readonly storeService: StoreService,
    private readonly currencies: CurrencyDecimals,
    private readonly referenceData: ReferenceService,
    private readonly taxes: TaxAndCurrencyService,
    private readonly rules: PricingRuleService,
    private readonly bundles: BundleService,
    private readonly customers: CustomerService,
  ) {}

  /** The store (403 for another one, 422 for none or an unknown one) and its current warehouses and price books. */
  async frame(principal: Principal, storeId: number | undefined, fixed?: { warehouseIds: number[]; priceBookIds: number[] }): Promise<StoreFrame> {
    const store = await this.stores.resolve(principal, storeId);
    const [decimals, tax] = await Promise.all([this.currencies.of(store.currencyCode), this.taxes.taxInfo(principal, store.id)]);
    const taxRates = new Map(tax.tax_classes.map((c) => [c.id, c.rate]));
    if (fixed) return { store, decimals, taxRates, ...fixed };
    const [warehouses, books] = await Promise.all([
      this.storeService.storeWarehouses(principal, store.id, true),
      this.referenceData.storePriceBooks(store.id, store.currencyCode),
    ]);
    return { store, decimals, taxRates, warehouseIds: warehouses.map((w) => w.id), priceBookIds: books.map((b) => b.id) };
  }

  async reference(principal: Principal, frame: StoreFrame) {
    const { store, decimals } = frame;
    const [currency, warehouses, methods, tax, groups, books, rules, bundles] = await Promise.all([
      this.referenceData.currency(store.currencyCode),
      this.storeService.storeWarehouses(principal, store.id, true),
      this.stores.paymentMethods(store.id),
      this.taxes.taxInfo(principal, store.id),
      this.customers.groups(),
      this.referenceData.storePriceBooks(store.id, store.currencyCode),
      this.rules.activeForStore(store.id),
      this.bundles.activeForStore(store.id),
    ]);
    return {
      store: {
        id: store.id,
        name: store.name,
        code: store.code,
        address: store.address,
        phone: store.phone,
        email: store.email,
        currency: store.currencyCode,
        timezone: store.timezone,
        prices_include_tax: store.pricesIncludeTax,
        allow_negative_stock: store.allowNegativeStock,
        default_warehouse_id: store.defaultWarehouseId,
        receipt_header: store.receiptHeader,
        receipt_footer: store.receiptFooter,
        warehouses: warehouses.map((w) => ({ id: w.id, name: w.name, code: w.code, store_id: w.store_id, is_standalone: w.is_standalone })),
        updated_at: store.updatedAt.toISOString(),
      },
      currency: { code: currency.code, name: currency.name, symbol: currency.symbol, decimals: currency.decimals },
      discount_limits: {
        max_discount_percent: principal.discountLimits.maxPercentBp / 100,
        max_discount_amount: fromMinor(principal.discountLimits.maxAmount, decimals),
        can_approve_discounts: hasPermission(principal, 'discounts.approve'),
      },
      payment_methods: methods.map(paymentMethodView),
      tax: { prices_include_tax: tax.prices_include_tax, rounding: tax.rounding, exemption: tax.exemption, tax_classes: tax.tax_classes },
      customer_groups: groups,
      price_books: books,
      pricing_rules: rules.map((r) => ruleViewInCurrency(r, decimals)),
      bundles: bundles.map((b) => bundleViewInCurrency(b, decimals)),
    };
  }
}

/** A short fingerprint of the reference sets: the next delta sends them only when it changed. */
export function referenceHash(reference: SyncReference): string {
  return createHash('sha256').update(JSON.stringify(reference)).digest('hex').slice(0, 32);
}
