import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/columns';

export interface IdempotencyRecord {
  id: number;
  key: string;
  /**
   * The operation the key was first used for (checkout, return, ...; `request` for the Idempotency-Key
   * header, whose fingerprint covers the method and URL too): a key is unique across the service.
   */
  scope: string;
  /** SHA-256 of the canonical request body. */
  fingerprint: string;
  status: 'in_flight' | 'completed';
  responseStatus: number | null;
  responseBody: string | null;
  userId: number;
  createdAt: Date;
  completedAt: Date | null;
}

@Entity('idempotency_keys')
export class IdempotencyKeyEntity implements IdempotencyRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'idem_key' }) key!: string;
  @Column() scope!: string;
  @Column() fingerprint!: string;
  @Column({ type: 'varchar' }) status!: 'in_flight' | 'completed';
  @Column({ name: 'response_status', type: 'integer', nullable: true }) responseStatus!: number | null;
  @Column({ name: 'response_body', type: 'text', nullable: true }) responseBody!: string | null;
  @Column({ name: 'user_id' }) userId!: number;
  @Column({ name: 'created_at', type: 'datetime', transformer: utcDate }) createdAt!: Date;
  @Column({ name: 'completed_at', type: 'datetime', nullable: true, transformer: utcDate }) completedAt!: Date | null;
}
