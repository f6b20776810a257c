import { Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { assertVersion, Clock, ConflictError, ExpectedVersions, NotFoundError, PageRequest, ValidationFailedError } from '@pos/kernel';
import { assertStoreAccess, Principal } from '@pos/identity';
import { StoreContext } from '@pos/catalog';
import { ChangeLog, requirePort, Transactional } from '@pos/platform';
import { CustomerCreated, CustomerDeleted, CustomerUpdated } from './customer.events';
import { customerView, CustomerView } from './customer.views';
import {
  CustomerFilter,
  CustomerGroupRecord,
  CustomerPricingProfile,
  CustomerReceivables,
  CustomerRecord,
  CustomerRepository,
  CustomerWrite,
} from './customer.ports';

export interface CustomerInput {
  name?: string;
  email?: string | null;
  phone?: string | null;
  address?: string | null;
  customerGroupId?: number | null;
  storeId?: number | null;
  status?: 'active' | 'inactive';
  paymentTermsDays?: number;
  taxExempt?: boolean;
  notes?: string | null;
}

/**
 * Customers are shared by every store of the chain (a customer may buy anywhere); store_id is
 * their home store. Emails are unique among live customers. Deleting a customer anonymises the
 * personal data and soft-deletes the row, so past sales keep pointing at a whole record.
 */
@Injectable()
export class CustomerService {
  constructor(
    private readonly customers: CustomerRepository,
    private readonly stores: StoreContext,
    private readonly changes: ChangeLog,
    private readonly clock: Clock,
    private readonly moduleRef: ModuleRef,
  ) {}

  async list(filter: CustomerFilter, page: PageRequest) {
    const result = await this.customers.list(filter, page);
    const groups = await this.groupsOf(result.items);
    return result.map((c) => customerView(c, groups));
  }

  async search(q: string, limit: number) {
    const found = await this.customers.search(q.trim(), limit);
    const groups = await this.groupsOf(found);
    return found.map((c) => customerView(c, groups));
  }

  /** Published to pricing and checkout: the customer's group, payment terms and tax exemption (null: no such customer). */
  async pricingProfile(id: number): Promise<CustomerPricingProfile | null> {
    const c = await this.customers.find(id);
    return c ? { id: c.id, customerGroupId: c.customerGroupId, paymentTermsDays: c.paymentTermsDays, taxExempt: c.taxExempt, isWalkIn: c.isWalkIn } : null;
  }

  /** Published to sales search: customers whose name, email or phone is exactly q. */
  idsMatching(q: string): Promise<number[]> {
    return this.customers.idsMatching(q.trim(), 500);
  }

  /**
   * Offline sync: customers after an id, in id order (live ones; with `changedSince`, every one
   * changed since, a deleted one flagged so the device drops it).
   */
  async syncPage(afterId: number, limit: number, changedSince?: Date): Promise<{ id: number; deleted: boolean; view: CustomerView }[]> {
    const rows = await this.customers.syncPage(afterId, limit, changedSince);
    const groups = await this.groupsOf(rows);
    return rows.map((c) => ({ id: c.id, deleted: c.deletedAt !== null, view: customerView(c, groups) }));
  }

  async show(id: number) {
    const c = await this.customers.find(id);
    if (!c) throw new NotFoundError('Customer');
    return customerView(c, await this.groupsOf([c]));
  }

  @Transactional()
  async create(principal: Principal, input: CustomerInput & { name: string }) {
    await this.validate(principal, input);
    const now = this.clock.now();
    const c = await this.customers.create(
      {
        name: input.name.trim(),
        email: normaliseEmail(input.email),
        phone: input.phone?.trim() || null,
        address: input.address?.trim() || null,
        customerGroupId: input.customerGroupId ?? null,
        storeId: input.storeId ?? null,
        status: input.status ?? 'active',
        paymentTermsDays: input.paymentTermsDays ?? 30,
        taxExempt: input.taxExempt ?? false,
        notes: input.notes ?? null,
      },
      now,
    );
    const view = customerView(c, await this.groupsOf([c]));
    await this.changes.event(CustomerCreated, { customer: view }, c.storeId);
    return view;
  }

  /** `expected`: the versions the caller's edit was based on (If-Match or body version); a newer customer is a 412. */
  @Transactional()
  async update(principal: Principal, id: number, input: CustomerInput, expected?: ExpectedVersions) {
    if (expected !== undefined) assertVersion(await this.customers.lockVersion(id), expected, 'customer');
    const current = await this.customers.find(id);
    if (!current) throw new NotFoundError('Customer');
    await this.validate(principal, input, id);
    if (current.isWalkIn) walkInPricingUnchanged(input, current);
    const changes: Partial<CustomerWrite> = {};
    if (input.name !== undefined) changes.name = input.name.trim();
    if (input.email !== undefined) changes.email = normaliseEmail(input.email);
    if (input.phone !== undefined) changes.phone = input.phone?.trim() || null;
    if (input.address !== undefined) changes.address = input.address?.trim() || null;
    if (input.customerGroupId !== undefined) changes.customerGroupId = input.customerGroupId;
    if (input.storeId !== undefined) changes.storeId = input.storeId;
    if (input.status !== undefined) changes.status = input.status;
    if (input.paymentTermsDays !== undefined) changes.paymentTermsDays = input.paymentTermsDays;
    if (input.taxExempt !== undefined) changes.taxExempt = input.taxExempt;
    if (input.notes !== undefined) changes.notes = input.notes;
    await this.customers.update(id, changes, this.clock.now());
    const view = await this.show(id);
    await this.changes.event(CustomerUpdated, { customer: view }, view.store_id);
    return view;
  }

  @Transactional()
  async remove(id: number): Promise<void> {
    const current = await this.customers.find(id);
    if (!current) throw new NotFoundError('Customer');
    if (current.isWalkIn) throw new ConflictError('walk_in_customer', 'The walk-in customer cannot be deleted.');
    // Asked when needed (not at boot): the worker prices carts without the sales context.
    const open = await requirePort(this.moduleRef, CustomerReceivables, 'CustomerService.remove', 'SalesModule').openInvoices(id);
    if (open > 0)
      throw new ConflictError(
        'customer_has_balance',
        `The customer still owes on ${open} invoice${open === 1 ? '' : 's'}: collect the payment or credit it (a return) before deleting the customer.`,
      );
    await this.customers.anonymiseAndDelete(id, this.clock.now());
    await this.changes.tombstone('customer', id, current.storeId);
    await this.changes.event(CustomerDeleted, { customer: { id } }, current.storeId);
  }

  async groups() {
    return (await this.customers.groups()).map((g) => ({ id: g.id, name: g.name, code: g.code }));
  }

  @Transactional()
  async createGroup(name: string, code: string) {
    if (await this.customers.groupByCode(code)) throw ValidationFailedError.field('code', 'The code has already been taken.');
    const g = await this.customers.createGroup(name.trim(), code.trim(), this.clock.now());
    return { id: g.id, name: g.name, code: g.code };
  }

  private async validate(principal: Principal, input: CustomerInput, id?: number): Promise<void> {
    const errors: Record<string, string[]> = {};
    const email = normaliseEmail(input.email);
    if (email && (await this.customers.findByEmail(email, id))) errors.email = ['The email has already been taken.'];
    if (input.customerGroupId != null && (await this.customers.groups([input.customerGroupId])).length === 0)
      errors.customer_group_id = ['The selected customer group does not exist.'];
    if (input.storeId != null) {
      assertStoreAccess(principal, input.storeId);
      if (!(await this.stores.store(input.storeId))) errors.store_id = ['The selected store does not exist.'];
    }
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
  }

  private async groupsOf(customers: CustomerRecord[]): Promise<CustomerGroupRecord[]> {
    const ids = [...new Set(customers.map((c) => c.customerGroupId).filter((g): g is number => g !== null))];
    return ids.length ? this.customers.groups(ids) : [];
  }
}

function normaliseEmail(email: string | null | undefined): string | null {
  return email ? email.trim().toLowerCase() : null;
}

/**
 * The walk-in customer is every anonymous sale: a tax exemption or another price group on it
 * would reach all of them (a cashier's edit made every walk-in sale tax free, with no reason recorded).
 * A sale is exempted on its own, with a reason (checkout's tax_exempt).
 */
function walkInPricingUnchanged(input: CustomerInput, current: CustomerRecord): void {
  const errors: Record<string, string[]> = {};
  if (input.taxExempt === true) errors.tax_exempt = ['The walk-in customer cannot be tax exempt: exempt the sale, with a reason.'];
  if (input.customerGroupId !== undefined && input.customerGroupId !== current.customerGroupId)
    errors.customer_group_id = ["The walk-in customer's group cannot be changed: it prices every anonymous sale."];
  if (Object.keys(errors).length) throw new ValidationFailedError(errors);
}
