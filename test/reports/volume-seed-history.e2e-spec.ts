import { runCommand } from '../../apps/cli/src/commands';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * `seed:volume` on an empty database whose configuration asks for demo history
 * (DEMO_HISTORY_DAYS > 0, the default outside the tests): it loads the bare demo set, since the
 * volume seeder writes its own trading and refuses a database that already has sales.
 */
describe('seed:volume with DEMO_HISTORY_DAYS set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ SEED_DEMO_ON_FIRST_START: 'false', DEMO_HISTORY_DAYS: '3' });
  });
  afterAll(() => t?.close());

  it('seeds the bare demo set, then its own sales', async () => {
    const quiet = { isTTY: false, write: () => true };
    const out = (await runCommand(t.app, 'seed:volume', { sales: '40', items: '10', customers: '5', days: '5', seed: '3' }, quiet)) as {
      seeded: { sales: number };
    };
    const [{ n }] = (await t.db.query('SELECT COUNT(*) AS n FROM sales')) as { n: number | string }[];
    expect(Number(n)).toBe(out.seeded.sales);
    expect(out.seeded.sales).toBe(40);
  });
});
