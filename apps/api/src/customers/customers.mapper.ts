import { CustomerInput } from '@pos/customers';
import { CreateCustomerDto, CustomerWriteDto } from './customers.dto';

/** A customer body to the use case's input: only the fields given (an update changes only those). */
export function customerInput(b: CustomerWriteDto | CreateCustomerDto): CustomerInput {
  return {
    name: b.name,
    email: b.email,
    phone: b.phone,
    address: b.address,
    customerGroupId: b.customer_group_id,
    storeId: b.store_id,
    status: b.status,
    paymentTermsDays: b.payment_terms_days,
    taxExempt: b.tax_exempt,
    notes: b.notes,
  };
}

/** A new customer: the name is required. */
export function customerCreateInput(b: CreateCustomerDto): CustomerInput & { name: string } {
  return { ...customerInput(b), name: b.name };
}
