import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '@pos/platform/database/columns';
import type { CustomerGroupRecord, CustomerRecord } from '../application/customer.ports';

const date = (name: string, nullable = false) => ({ name, type: 'datetime' as const, nullable, transformer: utcDate });

@Entity('customers')
export class CustomerEntity implements CustomerRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column() name!: string;
  @Column({ type: 'varchar', nullable: true }) email!: string | null;
  @Column({ type: 'varchar', nullable: true }) phone!: string | null;
  @Column({ type: 'text', nullable: true }) address!: string | null;
  @Column({ name: 'customer_group_id', type: 'integer', nullable: true }) customerGroupId!: number | null;
  @Column({ name: 'store_id', type: 'integer', nullable: true }) storeId!: number | null;
  @Column({ name: 'is_walk_in' }) isWalkIn!: boolean;
  @Column() status!: string;
  @Column({ name: 'payment_terms_days', type: 'integer' }) paymentTermsDays!: number;
  @Column({ name: 'tax_exempt' }) taxExempt!: boolean;
  @Column({ type: 'text', nullable: true }) notes!: string | null;
  @Column(date('anonymised_at', true)) anonymisedAt!: Date | null;
  @Column({ type: 'integer', default: 1 }) version!: number;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
  @Column(date('deleted_at', true)) deletedAt!: Date | null;
}

@Entity('customer_groups')
export class CustomerGroupEntity implements CustomerGroupRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column() name!: string;
  @Column() code!: string;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
}
