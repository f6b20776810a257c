import { defineEvent } from '@pos/platform';
import type { CustomerView } from './customer.views';

export const CustomerCreated = defineEvent<{ customer: CustomerView }>('customer.created');
export const CustomerUpdated = defineEvent<{ customer: CustomerView }>('customer.updated');
