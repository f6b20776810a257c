export * from './domain/payments';
export * from './application/sale.ports';
export * from './application/checkout.service';
export * from './application/sale.service';
export * from './application/sale.views';
export * from './sales.module';
