import { CustomerGroupRecord, CustomerRecord } from './customer.ports';

export type CustomerView = ReturnType<typeof customerView>;

export function customerView(c: CustomerRecord, groups: CustomerGroupRecord[] = []) {
  const group = groups.find((g) => g.id === c.customerGroupId);
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    address: c.address,
    customer_group_id: c.customerGroupId,
    customer_group: group ? { id: group.id, name: group.name, code: group.code } : null,
    store_id: c.storeId,
    is_walk_in: c.isWalkIn,
    status: c.status,
    payment_terms_days: c.paymentTermsDays,
    tax_exempt: c.taxExempt,
    notes: c.notes,
    version: c.version,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}
