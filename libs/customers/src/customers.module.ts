import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CustomerRepository } from './application/customer.ports';
import { CustomerService } from './application/customer.service';
import { CustomerEntity, CustomerGroupEntity } from './infrastructure/customer.entities';
import { TypeOrmCustomerRepository } from './infrastructure/customer.repository';

@Module({
  imports: [TypeOrmModule.forFeature([CustomerEntity, CustomerGroupEntity])],
  providers: [CustomerService, { provide: CustomerRepository, useClass: TypeOrmCustomerRepository }],
  exports: [CustomerService],
})
export class CustomersModule {}
