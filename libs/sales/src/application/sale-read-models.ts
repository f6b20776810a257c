import { Injectable } from '@nestjs/common';
import type { SaleFacts } from './sale.events';
import { AgingFilter, AgingGroup, ReceivableFilter, ReceivableGroup, SaleQueries } from './sale-queries.ports';
import { SaleRepository } from './sale.ports';

/**
 * Published by sales, read only: sales as the facts SaleRecordedFacts carries, in id order and in
 * batches, so a read model kept from those facts (report rollups) can be rebuilt from the raw
 * sales; and one sale's facts (a return's subscriber looks up the lines it refunds).
 */
@Injectable()
export class SaleFactsReader {
  constructor(
    private readonly sales: SaleRepository,
    private readonly queries: SaleQueries,
  ) {}

  /** Up to `limit` sales with id > afterId, in id order, with their lines and payments. */
  async batch(afterId: number, limit: number): Promise<SaleFacts[]> {
    const { sales, items, payments } = await this.queries.factsAfter(afterId, limit);
    if (!sales.length) return [];
    const byId = new Map(sales.map((s) => [s.id, { sale: s, items: [], payments: [] } as SaleFacts]));
    for (const l of items) byId.get(l.saleId)!.items.push(l);
    for (const p of payments) byId.get(p.saleId)!.payments.push(p);
    return [...byId.values()];
  }

  /** Maintenance, for a bulk loader that wrote the sales table directly: recounts the feeds' per-day and per-month sale counts. */
  rebuildFeedCounts(): Promise<void> {
    return this.queries.rebuildSaleCounts();
  }

  async sale(id: number): Promise<SaleFacts | null> {
    const sale = await this.sales.find(id);
    if (!sale) return null;
    const [items, payments] = await Promise.all([this.sales.items([id]), this.sales.payments([id])]);
    return { sale, items, payments };
  }
}

/**
 * Published by sales, read only: the open invoices (on-account balances) aggregated by store,
 * status and whether past due, for receivables reports (DSO, funnel); or by store and customer
 * with the balance per age bucket as columns (aging). One grouped query over the open invoices only.
 */
@Injectable()
export class ReceivablesReader {
  constructor(private readonly queries: SaleQueries) {}

  open(filter: ReceivableFilter): Promise<ReceivableGroup[]> {
    return this.queries.receivables(filter);
  }

  aging(filter: AgingFilter): Promise<AgingGroup[]> {
    return this.queries.aging(filter);
  }
}
