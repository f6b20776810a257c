import { TransactionHost } from '@nestjs-cls/transactional';
import { ItemService } from '@pos/catalog';
import { Principal, TokenService } from '@pos/identity';
import { DEMO, login, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { Download, downloadAll, settlesWithin, sleep } from './sync-helpers';

/**
 * A change whose transaction started before a sync token was issued and committed after it.
 * Two writers: A starts first, stamps updated_at and waits; B starts later, commits at once;
 * then a terminal downloads (token issued); then A commits. A plain "updated_at > token" delta
 * misses A. On MariaDB/MySQL this happens for real (reads do not wait for A; the download sees
 * B's new name and A's old one): the test requires the delta to carry A all the same. On SQLite
 * transactions take turns on the one connection, so B and the download wait for A: the order
 * cannot invert there, and the test checks the same end state.
 */
describe('Offline sync: a transaction that commits after the token is issued', () => {
  const scenario = async (t: TestApp) => {
    const txHost = t.app.get(TransactionHost);
    const items = t.app.get(ItemService);
    const adminToken = await login(t, DEMO.admin);
    const admin = (await t.app.get(TokenService).authenticate(adminToken)) as Principal;
    const cashier = await login(t, DEMO.cashier);
    const [a, b] = (await t.db.query("SELECT id, sku FROM items WHERE sku IN ('BEV-004', 'BEV-005') ORDER BY sku")) as { id: number }[];
    const [aId, bId] = [Number(a.id), Number(b.id)];

    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let stamped!: () => void;
    const written = new Promise<void>((r) => (stamped = r));
    const writerA = txHost.withTransaction(async () => {
      await items.update(admin, aId, { name: 'Orange Juice (committed late)' });
      stamped();
      await gate;
    });
    await written;
    await sleep(1200); // the token will be well after A's updated_at (MySQL keeps whole seconds)
    const writerB = items.update(admin, bId, { name: 'Iced Tea (committed early)' });
    const bCommittedFirst = await settlesWithin(writerB, 2000);
    const download = downloadAll(t, cashier, '/api/v1/sync/initial', { store_id: 1, limit: 10 });
    const downloadedBeforeA = await settlesWithin(download, 3000);
    release();
    await writerA;
    await writerB;
    const initial = await download;
    const delta = await downloadAll(t, cashier, '/api/v1/sync/delta', { since: initial.token, limit: 10 });
    return { aId, bId, initial, delta, bCommittedFirst, downloadedBeforeA };
  };

  /** The name a terminal ends up with: the initial download, then the delta applied over it. */
  const finalName = (id: number, ...downloads: Download[]) => {
    let name: unknown;
    for (const d of downloads) for (const item of d.records.items ?? []) if (item.id === id) name = item.name;
    return name;
  };
  const nameIn = (id: number, d: Download) => d.records.items.find((i) => i.id === id)?.name;

  it('is in the next delta (never missed), on both databases', async () => {
    const t = await startTestApp();
    try {
      const r = await scenario(t);
      if (t.isMysql) {
        // the commits really were out of order around the token
        expect(r.bCommittedFirst).toBe(true);
        expect(r.downloadedBeforeA).toBe(true);
        expect(nameIn(r.aId, r.initial)).toBe('Orange Juice 1L');
        expect(nameIn(r.bId, r.initial)).toBe('Iced Tea (committed early)');
      }
      expect(finalName(r.aId, r.initial, r.delta)).toBe('Orange Juice (committed late)');
      expect(finalName(r.bId, r.initial, r.delta)).toBe('Iced Tea (committed early)');
      expect(nameIn(r.aId, r.delta)).toBe('Orange Juice (committed late)');
    } finally {
      await t.close();
    }
  });

  // The control: without the overlap window (a plain updated_at >= token), the same run loses A.
  // Only MySQL can invert the commits (see above), so only there can the loss be shown.
  (usingMysql() ? it : it.skip)('would be missed without the overlap window (control, MySQL)', async () => {
    const t = await startTestApp({ SYNC_OVERLAP_SECONDS: '0' });
    try {
      const r = await scenario(t);
      expect(r.downloadedBeforeA).toBe(true);
      expect(finalName(r.aId, r.initial, r.delta)).toBe('Orange Juice 1L');
    } finally {
      await t.close();
    }
  });
});
