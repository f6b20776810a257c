import { defineView, s } from '../http/openapi';

export const CustomerGroup = defineView('CustomerGroup', { id: s.int(), name: s.string(), code: s.string() });

export const Customer = defineView('Customer', {
  id: s.int(),
  name: s.string(),
  email: s.nullable(s.string()),
  phone: s.nullable(s.string()),
  address: s.nullable(s.string()),
  customer_group_id: s.nullable(s.int()),
  customer_group: s.nullable(CustomerGroup),
  store_id: s.nullable(s.int()),
  is_walk_in: s.bool(),
  status: s.enum(['active', 'inactive']),
  payment_terms_days: s.int(),
  tax_exempt: s.bool(),
  notes: s.nullable(s.string()),
  version: s.int('1 when created, +1 on every write; send it back (body version or If-Match) to refuse overwriting a newer edit'),
  created_at: s.dateTime(),
  updated_at: s.dateTime(),
});
