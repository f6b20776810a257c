/** A terminal as offline sync knows it: a user's device (its token's name) in a store. */
export interface SyncDeviceRecord {
  id: number;
  userId: number;
  storeId: number;
  deviceName: string;
  lastInitialSyncAt: Date | null;
  lastDeltaSyncAt: Date | null;
  lastUploadAt: Date | null;
  acceptedCount: number;
  duplicateCount: number;
  rejectedCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export type SettledStatus = 'accepted' | 'rejected';

/** The settled outcome of an uploaded transaction, by idempotency key (what a repeat is answered with). */
export interface SyncTransactionRecord {
  id: number;
  idempotencyKey: string;
  fingerprint: string;
  type: string;
  status: SettledStatus;
  recordId: number | null;
  receiptNumber: string | null;
  /** JSON: the accepted record's summary. */
  result: string | null;
  /** JSON: field -> messages of a rejection. */
  errors: string | null;
  message: string | null;
  deviceId: number;
  userId: number;
  storeId: number;
  offlineCreatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type SyncTransactionWrite = Omit<SyncTransactionRecord, 'id' | 'createdAt' | 'updatedAt'>;

export abstract class SyncDeviceRepository {
  abstract find(userId: number, storeId: number, deviceName: string): Promise<SyncDeviceRecord | null>;
  /** The device's row, created on first use (two first uses at once make one row). */
  abstract ensure(userId: number, storeId: number, deviceName: string, now: Date): Promise<SyncDeviceRecord>;
  abstract recordSync(id: number, kind: 'initial' | 'delta', at: Date): Promise<void>;
  abstract recordUpload(id: number, counts: { accepted: number; duplicate: number; rejected: number }, at: Date): Promise<void>;
}

export abstract class SyncTransactionRepository {
  abstract find(idempotencyKey: string): Promise<SyncTransactionRecord | null>;
  /** Inserts; false when the key is already there (another request settled it first). */
  abstract insert(record: SyncTransactionWrite, now: Date): Promise<boolean>;
  /** An accepted outcome replaces whatever the key held (checkout guarantees there is one sale per key). */
  abstract saveAccepted(record: SyncTransactionWrite, now: Date): Promise<void>;
  /** A rejection is kept unless the key has meanwhile been accepted. */
  abstract saveRejected(record: SyncTransactionWrite, now: Date): Promise<void>;
  /** Removes a rejection with this fingerprint (a corrected transaction takes the key over). */
  abstract dropRejected(idempotencyKey: string, fingerprint: string): Promise<void>;
  abstract update(idempotencyKey: string, changes: Partial<SyncTransactionWrite>, now: Date): Promise<void>;
  /** The device's transactions still rejected, newest first, and how many there are. */
  abstract rejectedOf(deviceId: number, limit: number): Promise<{ rows: SyncTransactionRecord[]; total: number }>;
}
