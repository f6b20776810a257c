/**
 * The customers context's published interface. Pricing and checkout read a customer's
 * `CustomerPricingProfile` (group, payment terms, tax exemption) and sales search asks for ids
 * matching a name, email or phone: never the repository or the customer views.
 */
export { CustomersModule } from './customers.module';
export { CustomerService } from './application/customer.service';
export type { CustomerInput } from './application/customer.service';
export type { CustomerView } from './application/customer.views';
export type { CustomerPricingProfile } from './application/customer.ports';
export { CustomerReceivables } from './application/customer.ports';
export * from './application/customer.events';
