import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '@pos/platform';
import type { SettledStatus, SyncDeviceRecord, SyncTransactionRecord } from '../application/sync.ports';

const date = (name: string, nullable = false) => ({ name, type: 'datetime' as const, nullable, transformer: utcDate });

@Entity('sync_devices')
export class SyncDeviceEntity implements SyncDeviceRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'user_id' }) userId!: number;
  @Column({ name: 'store_id' }) storeId!: number;
  @Column({ name: 'device_name' }) deviceName!: string;
  @Column(date('last_initial_sync_at', true)) lastInitialSyncAt!: Date | null;
  @Column(date('last_delta_sync_at', true)) lastDeltaSyncAt!: Date | null;
  @Column(date('last_upload_at', true)) lastUploadAt!: Date | null;
  @Column({ name: 'accepted_count', type: 'integer' }) acceptedCount!: number;
  @Column({ name: 'duplicate_count', type: 'integer' }) duplicateCount!: number;
  @Column({ name: 'rejected_count', type: 'integer' }) rejectedCount!: number;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
}

@Entity('sync_transactions')
export class SyncTransactionEntity implements SyncTransactionRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'idempotency_key' }) idempotencyKey!: string;
  @Column() fingerprint!: string;
  @Column() type!: string;
  @Column({ type: 'varchar' }) status!: SettledStatus;
  @Column({ name: 'record_id', type: 'integer', nullable: true }) recordId!: number | null;
  @Column({ name: 'receipt_number', type: 'varchar', nullable: true }) receiptNumber!: string | null;
  @Column({ type: 'text', nullable: true }) result!: string | null;
  @Column({ type: 'text', nullable: true }) errors!: string | null;
  @Column({ type: 'varchar', nullable: true }) message!: string | null;
  @Column({ name: 'device_id' }) deviceId!: number;
  @Column({ name: 'user_id' }) userId!: number;
  @Column({ name: 'store_id' }) storeId!: number;
  @Column(date('offline_created_at', true)) offlineCreatedAt!: Date | null;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
}

export const SYNC_ENTITIES = [SyncDeviceEntity, SyncTransactionEntity];
