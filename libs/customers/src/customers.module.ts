import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pos/catalog';
import { CustomerRepository } from './application/customer.ports';
import { CustomerService } from './application/customer.service';
import { CustomerEntity, CustomerGroupEntity } from './infrastructure/customer.entities';
import { TypeOrmCustomerRepository } from './infrastructure/customer.repository';

@Module({
  imports: [TypeOrmModule.forFeature([CustomerEntity, CustomerGroupEntity]), CatalogModule],
  providers: [CustomerService, { provide: CustomerRepository, useClass: TypeOrmCustomerRepository }],
  exports: [CustomerService],
})
export class CustomersModule {}
