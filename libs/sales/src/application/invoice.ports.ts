import { ChangeRead, Page, PageRequest } from '@pos/kernel';
import { InvoicePaymentRecord, InvoiceRecord } from './sale.ports';

export interface InvoiceFilter {
  storeIds: readonly number[] | 'all';
  storeId?: number;
  warehouseId?: number;
  status?: string;
  from?: Date;
  to?: Date;
  q?: string;
  now: Date;
  /** Change mode (issue 26): as SaleFilter.change. */
  change?: ChangeRead;
}

/** A sale's invoice and its later payments (on-account balances paid at the counter). */
export abstract class InvoiceRepository {
  abstract insertInvoice(invoice: Omit<InvoiceRecord, 'id'>): Promise<InvoiceRecord>;
  abstract invoiceOfSale(saleId: number): Promise<InvoiceRecord | null>;
  abstract invoice(id: number): Promise<InvoiceRecord | null>;
  abstract invoices(filter: InvoiceFilter, page: PageRequest): Promise<Page<InvoiceRecord>>;
  abstract updateInvoice(id: number, changes: Partial<InvoiceRecord>): Promise<void>;
  abstract insertInvoicePayment(p: Omit<InvoicePaymentRecord, 'id'>): Promise<InvoicePaymentRecord>;
  abstract invoicePayments(invoiceId: number): Promise<InvoicePaymentRecord[]>;
}
