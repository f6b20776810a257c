import { Injectable, OnModuleInit } from '@nestjs/common';
import { SessionSalesTotals, SessionSalesTotalsRegistry } from '@pos/sessions';
import { SaleRepository } from '../application/sale.ports';

/** A session's sales figures from its sales (voided ones excluded; returns come later). */
@Injectable()
export class SaleSessionTotals extends SessionSalesTotals implements OnModuleInit {
  constructor(
    private readonly sales: SaleRepository,
    private readonly registry: SessionSalesTotalsRegistry,
  ) {
    super();
  }

  onModuleInit(): void {
    this.registry.use(this);
  }

  async totals(sessionId: number) {
    const t = await this.sales.sessionTotals(sessionId);
    return { salesCount: t.salesCount, salesTotal: t.salesTotal, byMethod: t.byMethod, cashSales: t.byMethod.cash ?? 0, cashRefunds: 0 };
  }
}
