import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../columns';

@Entity('outbox_events')
export class OutboxEventEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column() type!: string;
  @Column({ name: 'store_id', type: 'integer', nullable: true }) storeId!: number | null;
  @Column({ type: 'text' }) payload!: string;
  @Column({ name: 'created_at', type: 'datetime', transformer: utcDate }) createdAt!: Date;
  @Column({ name: 'published_at', type: 'datetime', nullable: true, transformer: utcDate }) publishedAt!: Date | null;
}

@Entity('tombstones')
export class TombstoneEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column() entity!: string;
  @Column({ name: 'entity_id', type: 'integer' }) entityId!: number;
  @Column({ name: 'store_id', type: 'integer', nullable: true }) storeId!: number | null;
  @Column({ name: 'deleted_at', type: 'datetime', transformer: utcDate }) deletedAt!: Date;
}
