export * from './application/customer.ports';
export * from './application/customer.service';
export * from './customers.module';
