import { Injectable } from '@nestjs/common';
import { SessionSalesFigures, SessionSalesTotals } from '@pos/sessions';
import { SaleRepository } from '../application/sale.ports';

/** Binds the sessions context's port: a session's sales figures from its sales (voided ones excluded). */
@Injectable()
export class SaleSessionTotals extends SessionSalesTotals {
  constructor(private readonly sales: SaleRepository) {
    super();
  }

  async totals(sessionId: number): Promise<SessionSalesFigures> {
    const t = await this.sales.sessionTotals(sessionId);
    return { salesCount: t.salesCount, salesTotal: t.salesTotal, byMethod: t.byMethod, cashSales: t.byMethod.cash ?? 0 };
  }
}
