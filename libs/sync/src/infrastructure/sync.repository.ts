import { Injectable } from '@nestjs/common';
import { isUniqueViolation, TxRepository } from '@pos/platform';
import { SyncDeviceRecord, SyncDeviceRepository, SyncTransactionRecord, SyncTransactionRepository, SyncTransactionWrite } from '../application/sync.ports';
import { SyncDeviceEntity, SyncTransactionEntity } from './sync.entities';

@Injectable()
export class TypeOrmSyncDeviceRepository extends TxRepository implements SyncDeviceRepository {
  private get repo() {
    return this.em.getRepository(SyncDeviceEntity);
  }

  find(userId: number, storeId: number, deviceName: string): Promise<SyncDeviceRecord | null> {
    return this.repo.findOneBy({ userId, storeId, deviceName });
  }

  async ensure(userId: number, storeId: number, deviceName: string, now: Date): Promise<SyncDeviceRecord> {
    const found = await this.find(userId, storeId, deviceName);
    if (found) return found;
    await this.repo
      .createQueryBuilder()
      .insert()
      .values({
        userId,
        storeId,
        deviceName,
        lastInitialSyncAt: null,
        lastDeltaSyncAt: null,
        lastUploadAt: null,
        acceptedCount: 0,
        duplicateCount: 0,
        rejectedCount: 0,
        createdAt: now,
        updatedAt: now,
      })
      .orIgnore()
      .execute();
    return this.repo.findOneByOrFail({ userId, storeId, deviceName });
  }

  async recordSync(id: number, kind: 'initial' | 'delta', at: Date): Promise<void> {
    await this.repo.update({ id }, kind === 'initial' ? { lastInitialSyncAt: at, updatedAt: at } : { lastDeltaSyncAt: at, updatedAt: at });
  }

  async recordUpload(id: number, counts: { accepted: number; duplicate: number; rejected: number }, at: Date): Promise<void> {
    // Increments in SQL: two uploads of one device at once both count.
    await this.repo
      .createQueryBuilder()
      .update()
      .set({
        acceptedCount: () => `accepted_count + ${Math.trunc(counts.accepted)}`,
        duplicateCount: () => `duplicate_count + ${Math.trunc(counts.duplicate)}`,
        rejectedCount: () => `rejected_count + ${Math.trunc(counts.rejected)}`,
        lastUploadAt: at,
        updatedAt: at,
      })
      .where('id = :id', { id })
      .execute();
  }
}

@Injectable()
export class TypeOrmSyncTransactionRepository extends TxRepository implements SyncTransactionRepository {
  private get repo() {
    return this.em.getRepository(SyncTransactionEntity);
  }

  find(idempotencyKey: string): Promise<SyncTransactionRecord | null> {
    return this.repo.findOneBy({ idempotencyKey });
  }

  async insert(record: SyncTransactionWrite, now: Date): Promise<boolean> {
    try {
      await this.repo.insert({ ...record, createdAt: now, updatedAt: now });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async saveAccepted(record: SyncTransactionWrite, now: Date): Promise<void> {
    if (await this.insert(record, now)) return;
    await this.repo.update({ idempotencyKey: record.idempotencyKey }, { ...record, updatedAt: now });
  }

  /**
   * Insert first, and update only a row that is there: an UPDATE of a key that does not exist yet
   * locks the gap of the unique index on MySQL, and two uploads rejecting new keys that fall in the
   * same gap then deadlock on their inserts (as creates did: see ItemRepository.create).
   */
  async saveRejected(record: SyncTransactionWrite, now: Date): Promise<void> {
    if (await this.insert(record, now)) return;
    await this.repo.update({ idempotencyKey: record.idempotencyKey, status: 'rejected' }, { ...record, updatedAt: now });
  }

  async dropRejected(idempotencyKey: string, fingerprint: string): Promise<void> {
    await this.repo.delete({ idempotencyKey, fingerprint, status: 'rejected' });
  }

  async update(idempotencyKey: string, changes: Partial<SyncTransactionWrite>, now: Date): Promise<void> {
    await this.repo.update({ idempotencyKey }, { ...changes, updatedAt: now });
  }

  async rejectedOf(deviceId: number, limit: number): Promise<{ rows: SyncTransactionRecord[]; total: number }> {
    const [rows, total] = await this.repo.findAndCount({
      where: { deviceId, status: 'rejected' },
      order: { updatedAt: 'DESC', id: 'DESC' },
      take: limit,
    });
    return { rows, total };
  }
}
