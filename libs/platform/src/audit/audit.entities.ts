import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/columns';

@Entity('audit_log')
export class AuditEntryEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column() action!: string;
  @Column({ name: 'actor_id', type: 'integer', nullable: true }) actorId!: number | null;
  @Column({ name: 'actor_name', type: 'varchar', nullable: true }) actorName!: string | null;
  @Column({ name: 'store_id', type: 'integer', nullable: true }) storeId!: number | null;
  @Column({ name: 'target_type' }) targetType!: string;
  @Column({ name: 'target_id' }) targetId!: string;
  @Column({ type: 'text', nullable: true }) before!: string | null;
  @Column({ type: 'text', nullable: true }) after!: string | null;
  @Column({ name: 'request_id', type: 'varchar', nullable: true }) requestId!: string | null;
  @Column({ name: 'created_at', type: 'datetime', transformer: utcDate }) createdAt!: Date;
}
