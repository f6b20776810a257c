import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { bigintToNumber, utcDate } from '@pos/platform/database/columns';
import type { CashMovementRecord, SessionRecord } from '../application/session.ports';
import type { SessionStatus } from '../domain/session';

const date = (name: string, nullable = false) => ({ name, type: 'datetime' as const, nullable, transformer: utcDate });
const money = (name: string, nullable = false) => ({ name, type: 'bigint' as const, nullable, transformer: bigintToNumber });

@Entity('cashier_sessions')
export class SessionEntity implements SessionRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'user_id' }) userId!: number;
  @Column({ name: 'store_id' }) storeId!: number;
  @Column({ name: 'cash_register_id', type: 'integer', nullable: true }) cashRegisterId!: number | null;
  @Column({ type: 'varchar' }) status!: SessionStatus;
  @Column({ name: 'live_key', type: 'varchar', nullable: true }) liveKey!: string | null;
  @Column(money('opening_balance')) openingBalance!: number;
  @Column(money('closing_balance', true)) closingBalance!: number | null;
  @Column(money('expected_cash', true)) expectedCash!: number | null;
  @Column(money('discrepancy', true)) discrepancy!: number | null;
  @Column({ type: 'text', nullable: true }) notes!: string | null;
  @Column({ name: 'discrepancy_notes', type: 'text', nullable: true }) discrepancyNotes!: string | null;
  @Column(date('opened_at')) openedAt!: Date;
  @Column(date('suspended_at', true)) suspendedAt!: Date | null;
  @Column(date('closed_at', true)) closedAt!: Date | null;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('updated_at')) updatedAt!: Date;
}

@Entity('cash_movements')
export class CashMovementEntity implements CashMovementRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'session_id' }) sessionId!: number;
  @Column({ type: 'varchar' }) type!: 'cash_in' | 'cash_out';
  @Column(money('amount')) amount!: number;
  @Column() reason!: string;
  @Column({ type: 'text', nullable: true }) notes!: string | null;
  @Column({ type: 'varchar', nullable: true }) reference!: string | null;
  @Column({ name: 'user_id' }) userId!: number;
  @Column(date('created_at')) createdAt!: Date;
}
