import { ChangeRead, Page, PageRequest } from '@pos/kernel';

export interface CustomerRecord {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  customerGroupId: number | null;
  storeId: number | null;
  isWalkIn: boolean;
  status: string;
  paymentTermsDays: number;
  /** Sales to this customer carry no tax (e.g. a registered charity or a reseller). */
  taxExempt: boolean;
  notes: string | null;
  anonymisedAt: Date | null;
  /** 1 when created, +1 on every write of the row (If-Match on PUT compares it). */
  version: number;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

export interface CustomerGroupRecord {
  id: number;
  name: string;
  code: string;
}

export interface CustomerFilter {
  q?: string;
  status?: string;
  customerGroupId?: number;
  excludeWalkIn?: boolean;
  /** Change mode (issue 26): as a list, plus deleted (anonymised) customers, in (updated_at, id) order up to the horizon. */
  change?: ChangeRead;
}

export type CustomerWrite = Omit<CustomerRecord, 'id' | 'version' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'anonymisedAt' | 'isWalkIn'>;

export abstract class CustomerRepository {
  abstract list(filter: CustomerFilter, page: PageRequest): Promise<Page<CustomerRecord>>;
  /** Name, phone, email or address contains q; exact email/phone matches first. */
  abstract search(q: string, limit: number): Promise<CustomerRecord[]>;
  abstract find(id: number): Promise<CustomerRecord | null>;
  abstract findByEmail(email: string, excludeId?: number): Promise<CustomerRecord | null>;
  /** Live customers whose name, email or phone is exactly q (sales search). */
  abstract idsMatching(q: string, limit: number): Promise<number[]>;
  abstract create(customer: CustomerWrite, now: Date): Promise<CustomerRecord>;
  abstract update(id: number, changes: Partial<CustomerWrite>, now: Date): Promise<void>;
  /** A live customer's version, its row locked until the transaction ends (see ItemRepository.lockVersion); null: none. */
  abstract lockVersion(id: number): Promise<number | null>;
  abstract anonymiseAndDelete(id: number, at: Date): Promise<void>;
  /** Live customers after an id in id order; with `changedSince`, those changed since (deleted ones included). */
  abstract syncPage(afterId: number, limit: number, changedSince?: Date): Promise<CustomerRecord[]>;
  abstract groups(ids?: number[]): Promise<CustomerGroupRecord[]>;
  abstract groupByCode(code: string): Promise<CustomerGroupRecord | null>;
  abstract createGroup(name: string, code: string, now: Date): Promise<CustomerGroupRecord>;
  /** Whether a live store has this id (a home store must exist). */
}

/** What pricing and checkout need to know about a customer, and nothing else. */
export interface CustomerPricingProfile {
  id: number;
  customerGroupId: number | null;
  paymentTermsDays: number;
  taxExempt: boolean;
  /** The shared customer of anonymous sales: gives no credit (nobody to collect from). */
  isWalkIn: boolean;
}

/**
 * What customers still owe on their invoices. Customers own the port; the sales context (which
 * depends on customers) binds it. A customer with an open balance is not deleted.
 */
export abstract class CustomerReceivables {
  /** How many of the customer's invoices still have a balance. */
  abstract openInvoices(customerId: number): Promise<number>;
}
