import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CustomerService } from '@pos/customers';
import { Principal } from '@pos/identity';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { MessageResult } from '../http/envelope';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { CreateCustomerDto, CreateCustomerGroupDto, CustomerListQuery, CustomerSearchQuery, CustomerWriteDto } from './customers.dto';
import { customerCreateInput, customerInput } from './customers.mapper';
import { Customer, CustomerGroup } from './customers.responses';
import { ApiEnvelope, ApiErrors, ApiMessage } from '../http/openapi';
import { IdempotentCreate } from '../http/idempotency.decorator';
import { expectedVersions } from '../http/conditional';
import { ApiIfMatch } from '../http/conditional.openapi';
import { PatchToo } from '../http/partial-update';

@ApiTags('Customers')
@Controller()
export class CustomersController {
  constructor(private readonly customers: CustomerService) {}

  @Get('customers')
  @RequirePermission('customers.view')
  @ApiOperation({ summary: 'Customers (status, group and q/search filters; paginated)' })
  @ApiEnvelope(Customer, { paginated: true })
  list(@Query() q: CustomerListQuery) {
    return this.customers.list(
      { q: (q.q ?? q.search)?.trim() || undefined, status: q.status, customerGroupId: q.customer_group_id },
      pageRequest(q, { default: 50, max: 100 }),
    );
  }

  @Post('customers')
  @IdempotentCreate()
  @HttpCode(201)
  @RequirePermission('customers.manage')
  @ApiOperation({ summary: 'Create a customer (name required; email and phone validated; emails unique)' })
  @ApiEnvelope(Customer, { status: 201 })
  @ApiErrors(409)
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateCustomerDto) {
    return this.customers.create(p, customerCreateInput(body));
  }

  @Get('customers/search')
  @RateTier('pos')
  @RequirePermission('customers.view')
  @ApiOperation({ summary: 'Find customers by name, phone, email or address (exact email/phone first)' })
  @ApiEnvelope([Customer])
  search(@Query() q: CustomerSearchQuery) {
    return this.customers.search(q.q, q.limit ?? 20);
  }

  @Get('customers/:customer')
  @RequirePermission('customers.view')
  @ApiOperation({ summary: 'One customer' })
  @ApiEnvelope(Customer)
  show(@Param('customer', IdPipe) id: number) {
    return this.customers.show(id);
  }

  @PatchToo()
  @Put('customers/:customer')
  @RequirePermission('customers.manage')
  @ApiOperation({ summary: 'Update a customer; If-Match or version: only if unchanged since (else 412)' })
  @ApiEnvelope(Customer)
  @ApiErrors(409)
  @ApiIfMatch('customer')
  update(@CurrentPrincipal() p: Principal, @Param('customer', IdPipe) id: number, @Body() body: CustomerWriteDto, @Headers('if-match') ifMatch?: string) {
    return this.customers.update(p, id, customerInput(body), expectedVersions(ifMatch, body.version, 'customer'));
  }

  @Delete('customers/:customer')
  @RequirePermission('customers.manage')
  @ApiOperation({
    summary: 'Delete a customer: personal data anonymised, row kept for past sales',
    description: '409 walk_in_customer (the walk-in customer), customer_has_balance (an invoice of theirs still has a balance)',
  })
  @ApiMessage()
  @ApiErrors(409)
  async remove(@Param('customer', IdPipe) id: number) {
    await this.customers.remove(id);
    return new MessageResult('Customer deleted.');
  }

  @Get('customer-groups')
  @RequirePermission('customers.view')
  @ApiOperation({ summary: 'Customer groups' })
  @ApiEnvelope([CustomerGroup])
  groups() {
    return this.customers.groups();
  }

  @Post('customer-groups')
  @IdempotentCreate()
  @HttpCode(201)
  @RequirePermission('customers.manage')
  @ApiOperation({ summary: 'Create a customer group' })
  @ApiEnvelope(CustomerGroup, { status: 201 })
  @ApiErrors(409)
  createGroup(@Body() body: CreateCustomerGroupDto) {
    return this.customers.createGroup(body.name, body.code);
  }
}
