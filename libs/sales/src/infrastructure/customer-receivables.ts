import { Injectable } from '@nestjs/common';
import { CustomerReceivables } from '@pos/customers';
import { TxRepository } from '@pos/platform';

/** Binds the customers context's port: a customer's invoices that still have a balance (one count). */
@Injectable()
export class SaleCustomerReceivables extends TxRepository implements CustomerReceivables {
  async openInvoices(customerId: number): Promise<number> {
    const [row] = (await this.em.query('SELECT COUNT(*) AS n FROM invoices WHERE customer_id = ? AND balance > 0', [customerId])) as { n: number | string }[];
    return Number(row.n);
  }
}
