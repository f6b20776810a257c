import { Injectable } from '@nestjs/common';
import { Clock, FieldErrors } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { StoreContext } from '@pos/catalog';
import { deviceName } from './sync-feed.service';
import { SyncDeviceRepository, SyncTransactionRepository } from './sync.ports';

const REJECTED_SHOWN = 100;

/**
 * GET /sync/status: what the server knows of this device (the token's device name) in a store:
 * its last initial and delta syncs and last upload, how many uploaded transactions were
 * accepted, duplicate or rejected, and the ones still rejected (newest first) with their errors,
 * so the terminal can show them and send corrected ones.
 */
@Injectable()
export class SyncStatusService {
  constructor(
    private readonly stores: StoreContext,
    private readonly devices: SyncDeviceRepository,
    private readonly outcomes: SyncTransactionRepository,
    private readonly clock: Clock,
  ) {}

  async status(principal: Principal, storeId?: number) {
    const store = await this.stores.resolve(principal, storeId);
    const name = deviceName(principal);
    const device = await this.devices.find(principal.userId, store.id, name);
    const rejected = device ? await this.outcomes.rejectedOf(device.id, REJECTED_SHOWN) : { rows: [], total: 0 };
    const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
    return {
      server_time: this.clock.now().toISOString(),
      store_id: store.id,
      device: {
        name,
        last_initial_sync_at: iso(device?.lastInitialSyncAt),
        last_delta_sync_at: iso(device?.lastDeltaSyncAt),
        last_upload_at: iso(device?.lastUploadAt),
      },
      uploads: {
        accepted: device?.acceptedCount ?? 0,
        duplicate: device?.duplicateCount ?? 0,
        rejected: device?.rejectedCount ?? 0,
        pending_rejections: rejected.total,
      },
      rejected: rejected.rows.map((r) => ({
        idempotency_key: r.idempotencyKey,
        type: r.type,
        offline_created_at: iso(r.offlineCreatedAt),
        received_at: r.updatedAt.toISOString(),
        message: r.message,
        errors: r.errors ? (JSON.parse(r.errors) as FieldErrors) : null,
      })),
    };
  }
}
