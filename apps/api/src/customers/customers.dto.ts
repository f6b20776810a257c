import { applyDecorators } from '@nestjs/common';
import { Matches } from 'class-validator';
import { PageQueryDto } from '../http/page-query.dto';
import { OptionalBoolean, OptionalInt, OptionalString, RequiredString } from '../http/validators';

/** Digits with optional +, spaces, dashes, dots and parentheses; 5 to 20 digits. */
const OptionalPhone = () =>
  applyDecorators(
    OptionalString({ max: 50, example: '+1 555 0142', nullable: true, description: 'null clears it' }),
    Matches(/^(?=(?:\D*\d){5,20}\D*$)\+?[\d\s().-]+$/, { message: '$property must be a valid phone number' }),
  );

export class CustomerListQuery extends PageQueryDto {
  @OptionalString({ max: 255, description: 'Name, email, phone or address contains' }) q?: string;
  @OptionalString({ max: 255, description: 'Legacy alias of q' }) search?: string;
  @OptionalString({ in: ['active', 'inactive'] }) status?: 'active' | 'inactive';
  @OptionalInt() customer_group_id?: number;
}

export class CustomerSearchQuery {
  @RequiredString({ max: 255, description: 'Name, phone, email or address' }) q!: string;
  @OptionalInt({ min: 1, max: 50, description: 'Default 20' }) limit?: number;
}

/** Fields shared by create and update (name differs: required on create). */
class CustomerFieldsDto {
  @OptionalString({ max: 191, email: true, nullable: true, description: 'null clears it' }) email?: string | null;
  @OptionalPhone() phone?: string | null;
  @OptionalString({ max: 1000, multiline: true, nullable: true, description: 'null clears it' }) address?: string | null;
  @OptionalInt({ nullable: true, description: 'null: no group' }) customer_group_id?: number | null;
  @OptionalInt({ description: 'Home store (must be one of yours); null: none', nullable: true }) store_id?: number | null;
  @OptionalString({ in: ['active', 'inactive'] }) status?: 'active' | 'inactive';
  @OptionalInt({ min: 0, max: 365, description: 'Invoice terms for on-account sales (default 30)' }) payment_terms_days?: number;
  @OptionalBoolean('Sales to this customer carry no tax (default false)') tax_exempt?: boolean;
  @OptionalString({ max: 5000, multiline: true, nullable: true, description: 'null clears it' }) notes?: string | null;
}

// class-validator skips every rule, IsDefined included, when an inherited IsOptional applies:
// required and optional versions of a field must be declared on separate classes.
export class CreateCustomerDto extends CustomerFieldsDto {
  @RequiredString({ max: 255, example: 'Jane Doe' }) name!: string;
}

export class CustomerWriteDto extends CustomerFieldsDto {
  @OptionalString({ max: 255, nonEmpty: true }) name?: string;
  @OptionalInt({
    min: 1,
    description: 'The version this edit is based on (from a GET); when the record has moved on since: 412, nothing written. The If-Match header does the same',
  })
  version?: number;
}

export class CreateCustomerGroupDto {
  @RequiredString({ max: 100 }) name!: string;
  @RequiredString({ max: 32 }) code!: string;
}

export class IntegrationCustomerQuery extends PageQueryDto {
  @OptionalString({ max: 255 }) q?: string;
  @OptionalBoolean('Leave out the walk-in customer (default true)') exclude_walk_in?: boolean;
}
