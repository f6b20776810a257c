import { Injectable } from '@nestjs/common';
import { fromMinor, localDateTime, minorToString } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { StoreContext } from '@pos/catalog';
import { CurrencyDecimals } from '@pos/pricing';
import { SaleItemRecord, SaleRepository } from './sale.ports';
import { SaleService } from './sale.service';

const WIDTH = 40;

/**
 * Receipts, built from the sale's records in minor units (both renderings start from one model).
 * The sums add up on paper as in the books: subtotal - discounts + tax = total, amounts before tax
 * in either tax mode. Each line prints its shelf price and what it came to; the discount printed
 * under a line is off the shelf price as the customer saw it (tax included in a tax-inclusive
 * store), and an exempt customer's untaxed price in a tax-inclusive store is printed as such.
 * Times are the store's wall clock (its time zone), with the offset in the JSON.
 */
@Injectable()
export class SaleReceipts {
  constructor(
    private readonly sales: SaleRepository,
    private readonly saleService: SaleService,
    private readonly stores: StoreContext,
    private readonly currencies: CurrencyDecimals,
  ) {}

  /** All a printer needs, as JSON amounts in the sale's currency. */
  async receipt(principal: Principal, id: number) {
    const r = await this.model(principal, id);
    const m = (v: number) => fromMinor(v, r.decimals);
    return {
      store: r.store,
      receipt_number: r.receiptNumber,
      date: r.date.iso,
      time_zone: r.date.timeZone,
      cashier_id: r.cashierId,
      customer_id: r.customerId,
      status: r.status,
      lines: r.lines.map((l) => ({
        name: l.name,
        sku: l.sku,
        quantity: l.quantity,
        unit: l.unit,
        unit_price: m(l.unitPrice),
        gross: m(l.gross),
        discount: m(l.discount),
        shelf_discount: m(l.shelfDiscount),
        tax_rate: l.taxRateBp / 100,
        tax: m(l.tax),
        tax_exempted: m(l.taxExempted),
        total: m(l.total),
        serial_number: l.serialNumber,
      })),
      subtotal: m(r.subtotal),
      discount_total: m(r.discountTotal),
      taxes: r.taxes.map((t) => ({ rate: t.rateBp / 100, taxable: m(t.taxable), tax: m(t.tax) })),
      tax_total: m(r.taxTotal),
      tax_exempt: r.taxExempt,
      tax_exempted: m(r.taxExempted),
      total: m(r.total),
      payments: r.payments.map((p) => ({ method: p.method, amount: m(p.amount), tendered: p.tendered === null ? null : m(p.tendered), change: m(p.change) })),
      change: m(r.change),
      balance_due: m(r.balanceDue),
      prices_include_tax: r.pricesIncludeTax,
      footer: r.footer,
      currency: r.currency,
    };
  }

  /** The 40-column plain-text receipt, amounts printed from minor units with the currency's decimals. */
  async receiptText(principal: Principal, id: number): Promise<string> {
    const r = await this.model(principal, id);
    const money = (v: number) => minorToString(v, r.decimals);
    const row = (left: string, right: string) => {
      const l = left.slice(0, WIDTH - right.length - 1);
      return l + ' '.repeat(Math.max(1, WIDTH - l.length - right.length)) + right;
    };
    const center = (s: string) => ' '.repeat(Math.max(0, Math.floor((WIDTH - s.length) / 2))) + s.slice(0, WIDTH);
    const out: string[] = [];
    for (const line of (r.store.header ?? r.store.name).split('\n')) out.push(center(line));
    out.push(
      '-'.repeat(WIDTH),
      row(`Receipt ${r.receiptNumber}`, ''),
      row(r.date.printed, r.status === 'completed' ? '' : r.status.toUpperCase()),
      '-'.repeat(WIDTH),
    );
    for (const l of r.lines) {
      // What the line comes to as the store shows prices: with its tax where prices include tax,
      // before tax where tax is added below, so the lines add up to the subtotal on paper.
      out.push(row(l.name, money(r.pricesIncludeTax ? l.total : l.total - l.tax)));
      out.push(`  ${l.quantity}${l.unit ? ' ' + l.unit : ''} x ${money(l.unitPrice)}${l.shelfDiscount ? `  -${money(l.shelfDiscount)}` : ''}`);
      if (l.taxExempted) out.push(`  Tax exempt  -${money(l.taxExempted)}`);
      if (l.serialNumber) out.push(`  S/N ${l.serialNumber}`);
    }
    out.push('-'.repeat(WIDTH), row(r.pricesIncludeTax ? 'Subtotal excl. tax' : 'Subtotal', money(r.subtotal)));
    if (r.discountTotal) out.push(row(r.pricesIncludeTax ? 'Discounts excl. tax' : 'Discounts', '-' + money(r.discountTotal)));
    for (const t of r.taxes) out.push(row(`Tax ${t.rateBp / 100}%`, money(t.tax)));
    if (r.taxExempt) out.push(row('Tax exempt', money(0)));
    out.push(row('TOTAL', `${r.currency} ${money(r.total)}`));
    for (const p of r.payments) out.push(row(p.method.toUpperCase(), money(p.tendered ?? p.amount)));
    if (r.change) out.push(row('Change', money(r.change)));
    if (r.balanceDue) out.push(row('On account', money(r.balanceDue)));
    if (r.taxExempted) out.push(row('Tax not charged (exempt)', money(r.taxExempted)));
    out.push('-'.repeat(WIDTH));
    for (const line of (r.footer ?? '').split('\n').filter(Boolean)) out.push(center(line));
    return out.join('\n') + '\n';
  }

  private async model(principal: Principal, id: number) {
    const sale = await this.saleService.visible(principal, id);
    const [items, payments, store, decimals] = await Promise.all([
      this.sales.items([id]),
      this.sales.payments([id]),
      this.stores.store(sale.storeId),
      this.currencies.of(sale.currencyCode),
    ]);
    const taxes = new Map<number, { taxable: number; tax: number }>();
    for (const l of items) {
      const t = taxes.get(l.taxRateBp) ?? { taxable: 0, tax: 0 };
      t.taxable += l.net;
      t.tax += l.tax;
      taxes.set(l.taxRateBp, t);
    }
    return {
      decimals,
      store: { id: sale.storeId, name: store?.name ?? '', address: store?.address ?? null, phone: store?.phone ?? null, header: store?.receiptHeader ?? null },
      receiptNumber: sale.receiptNumber,
      date: localDateTime(sale.createdAt, store?.timezone),
      cashierId: sale.userId,
      customerId: sale.customerId,
      status: sale.status,
      lines: items.map((l) => ({
        name: l.name,
        sku: l.sku,
        quantity: l.quantity,
        unit: l.unitName,
        unitPrice: l.unitPrice,
        gross: l.gross,
        discount: l.gross - l.net,
        shelfDiscount: shelfDiscount(l, sale.pricesIncludeTax),
        taxRateBp: l.taxRateBp,
        tax: l.tax,
        taxExempted: l.taxExempted,
        total: l.total,
        serialNumber: l.serialNumber,
      })),
      subtotal: sale.subtotal,
      discountTotal: sale.discountTotal,
      // An exempt sale pays no tax: its rates are not printed as if it had (the exemption is).
      taxes: sale.taxExempt
        ? []
        : [...taxes.entries()]
            .filter(([, v]) => v.tax !== 0)
            .sort((a, b) => a[0] - b[0])
            .map(([rateBp, v]) => ({ rateBp, ...v })),
      taxTotal: sale.taxTotal,
      taxExempt: sale.taxExempt,
      taxExempted: items.reduce((a, l) => a + l.taxExempted, 0),
      total: sale.totalAmount,
      payments: payments.map((p) => ({ method: p.methodCode, amount: p.amount, tendered: p.tendered, change: p.changeAmount })),
      change: sale.changeAmount,
      balanceDue: sale.balanceDue,
      pricesIncludeTax: sale.pricesIncludeTax,
      footer: store?.receiptFooter ?? null,
      currency: sale.currencyCode,
    };
  }
}

/**
 * The discount off the shelf price as the customer saw it: the line's shelf amount less what it
 * came to before any exemption (tax-inclusive: total + the exempted tax; tax-exclusive: net).
 */
function shelfDiscount(l: SaleItemRecord, pricesIncludeTax: boolean): number {
  const shelfNet = pricesIncludeTax ? l.total + l.taxExempted : l.net;
  return l.unitPrice * l.quantity - shelfNet;
}
