import { Injectable } from '@nestjs/common';
import { OpenReturns } from '@pos/sales';
import { ReturnRepository } from '../application/return.ports';
import { statesAllowing } from '../domain/return-status';

/** Binds the sales context's port: a sale with a pending or approved return cannot be voided. */
@Injectable()
export class ReturnOpenReturns extends OpenReturns {
  constructor(private readonly returns: ReturnRepository) {
    super();
  }

  async exist(saleId: number): Promise<boolean> {
    // Open = can still be cancelled (pending, approved): it holds units of the sale.
    const open = statesAllowing('cancel');
    return (await this.returns.ofSales([saleId])).some((r) => open.includes(r.status));
  }
}
