/// <reference lib="dom" />
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { applyJournal } from '../reports/report-helpers';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';
import { boardFacts, layoutFacts } from './dashboard-facts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(__dirname, '../artifacts');
const available = existsSync(CHROMIUM);
if (!available) process.stdout.write(`dashboard browser test skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)\n`);

/** The viewer's settings: times must come out in this zone and locale, whatever the server's. */
const VIEWER: BrowserContextOptions = { locale: 'en-US', timezoneId: 'Asia/Tokyo', reducedMotion: 'reduce' };
const ISO_TIME = /\d{4}-\d{2}-\d{2}T/;
const SNAKE = /\b[a-z0-9]+_[a-z0-9_]+\b/;

/**
 * Issue 13 items 1-2 and issue 27 item 8: Debian's Chromium (headless, no network of its own)
 * signs in to /dashboard on the demo data plus a few sales, two cashier sessions and two webhook
 * deliveries, and checks what a person would see: every chart drawn with no console error or 4xx,
 * the Pareto axis in percent, no legend naming its currency twice, table cells without ISO times or
 * snake_case, the newest session first, a manager's and a cashier's board asking only for what
 * their role may see, and at tablet widths no table clipped. Screenshots go to test/artifacts/.
 */
(available ? describe : describe.skip)('Dashboard in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let receiver: Server;
  let endpointId: number;
  let lastSession: number;

  beforeAll(async () => {
    // A month of demo trading, so every chart has a shape (the history's own suite checks its figures).
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', DEMO_HISTORY_DAYS: '30' });
    await new Promise<void>((resolve) => t.http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(t.http.address() as AddressInfo).port}`;
    receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    lastSession = await recordSales(t);
    endpointId = await webhookDeliveries(t, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`);
    await applyJournal(t); // the worker's periodic pass, now rather than within the next second
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-pings',
        '--no-first-run',
        '--no-sandbox',
        '--disable-dev-shm-usage',
      ],
    });
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    receiver?.closeAllConnections(); // the sender keeps its connections alive
    await new Promise((resolve) => receiver?.close(resolve));
  });

  /** A page signed in as `email`, with every console error, failed or 4xx/5xx request and off-service request in `problems`. */
  async function signedIn(email: string, viewport: { width: number; height: number }): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ ...VIEWER, viewport });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page: ${String(e)}`));
    page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    page.on('request', (r) => {
      if (!r.url().startsWith(base)) problems.push(`left the service: ${r.url()}`);
    });
    await page.goto(`${base}/dashboard`, { waitUntil: 'load' });
    await page.fill('#email', email);
    await page.fill('#password', DEMO.password);
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('body[data-loaded="true"]', { timeout: 30_000, state: 'attached' });
    return { page, problems };
  }

  it('admin: draws every chart, percent Pareto axis, one currency per legend, readable tables newest first', async () => {
    const { page, problems } = await signedIn(DEMO.admin, { width: 1280, height: 800 });
    const f = await boardFacts(page);

    const reports = new Set(f.charts.map((c) => c.report));
    for (const r of ['sales', 'payments', 'heatmap', 'products/abc', 'inventory/stock', 'invoices/aging']) expect(reports).toContain(r);
    expect(new Set(f.charts.map((c) => c.type))).toEqual(new Set(['line', 'bar', 'pie', 'heatmap']));
    for (const c of f.charts) {
      expect({ title: c.title, ok: c.rendered === 'true' && c.points > 0 && c.marks > 0 }).toMatchObject({ ok: true });
    }
    expect(f.kpis[0]).toMatch(/\$/); // the Downtown store sells in USD

    // 1. The Pareto chart's value axis is the cumulative share, 0-100 %, never money.
    const pareto = f.charts.find((c) => /pareto/i.test(c.title));
    expect(pareto).toBeDefined();
    const axis = pareto!.texts.filter((s) => /\d/.test(s) && !/^\d+$/.test(s)); // the ranks 1, 2, ... are the x axis
    expect(axis.length).toBeGreaterThanOrEqual(3);
    for (const label of axis) expect(label).toMatch(/^\d+(\.\d+)? %$/);
    expect(axis).toContain('100 %');

    // 2. No legend or label names its currency twice; the payment methods read as words.
    for (const c of f.charts)
      for (const s of c.texts) expect({ chart: c.title, text: s, twice: /\b([A-Z]{3})\b.*\b\1\b/.test(s) }).toMatchObject({ twice: false });
    const methods = f.charts.find((c) => c.title === 'Net taken per day by method');
    expect(methods?.texts).toEqual(expect.arrayContaining(['Cash (USD)', 'Card (USD)', 'On account (USD)']));

    // 3. Table cells: no ISO time, no snake_case; times in the viewer's zone; money in the row's currency.
    const cells = f.tables.flatMap((tb) => tb.rows.flat().map((text) => ({ table: tb.name, text })));
    expect(cells.length).toBeGreaterThan(20);
    expect(cells.filter((c) => ISO_TIME.test(c.text) || SNAKE.test(c.text))).toEqual([]);
    const deliveries = f.tables.find((tb) => tb.name === 'deliveries')!;
    const newest = (
      await request(t.http)
        .get(`/api/v1/webhooks/${endpointId}/deliveries`)
        .set(bearer(await login(t, DEMO.admin)))
    ).body.data[0];
    const local = new Intl.DateTimeFormat(VIEWER.locale, {
      timeZone: VIEWER.timezoneId,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
    expect(deliveries.rows[0][deliveries.heads.indexOf('Created')]).toBe(local.format(new Date(newest.created_at)));
    const sessions = f.tables.find((tb) => tb.name === 'closeout')!;
    const col = (h: string) => sessions.heads.indexOf(h);
    expect(sessions.rows.map((r) => r[col('Status')])).toContain('Closed');
    for (const r of sessions.rows) expect(r[col('Counted cash')]).toMatch(/^(-?\$\d[\d,]*\.\d{2}|–)$/);

    // 4. Newest first: the session opened last heads the table, then day by day backwards.
    expect(sessions.rows[0][col('Session')]).toBe(String(lastSession));
    const days = sessions.rows.map((r) => Date.parse(r[col('Day')]));
    expect(days).toEqual([...days].sort((a, b) => b - a));

    expect(await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie]))).toBe('[{},{},""]');
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard.png'), fullPage: true });
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-top.png') }); // the first screen (README's picture)
    expect(problems).toEqual([]);
  }, 90_000);

  // 5. Each role asks only for what it may see: no 403 in the console.
  it('manager: the reports the role may see, no webhook deliveries, no 4xx and no console error', async () => {
    const { page, problems } = await signedIn(DEMO.manager, { width: 1280, height: 800 });
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-manager.png'), fullPage: true });
    expect(problems).toEqual([]);
    const f = await boardFacts(page);
    expect(f.charts.length).toBeGreaterThan(5);
    expect(f.tables.map((tb) => tb.name)).not.toContain('deliveries');
    expect(f.tables.map((tb) => tb.name)).toContain('closeout');
  }, 60_000);

  it('cashier: says the role has no reports, with no 4xx and no console error', async () => {
    const { page, problems } = await signedIn(DEMO.cashier, { width: 1024, height: 768 });
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-cashier.png') });
    expect(problems).toEqual([]);
    expect(await page.$eval('#no-reports', (e) => e.textContent)).toMatch(/no reports for your role/i);
    expect((await boardFacts(page)).charts).toEqual([]);
  }, 60_000);

  // 6. Tablet, portrait and landscape: the page never scrolls sideways and every table fits its card.
  it.each([
    [768, 1024],
    [1024, 768],
  ])(
    'tablet %i x %i: nothing overflows the viewport, no table clipped',
    async (width, height) => {
      const { page, problems } = await signedIn(DEMO.admin, { width, height });
      const l = await layoutFacts(page);
      expect(l.tables.length).toBeGreaterThanOrEqual(4);
      expect({ scrollWidth: l.scrollWidth, overflowing: l.overflowing }).toEqual({ scrollWidth: width, overflowing: [] });
      for (const tb of l.tables) expect(tb).toMatchObject({ fits: true, scrollable: true });
      await page.screenshot({ path: join(ARTIFACTS, `dashboard-tablet-${width}.png`), fullPage: true });
      expect(problems).toEqual([]);
    },
    60_000,
  );

  it('asks for the two-factor code when the account has 2FA on', async () => {
    const page = await browser.newPage();
    await page.goto(`${base}/dashboard/`, { waitUntil: 'load' });
    await t.db.query("UPDATE users SET two_factor_secret = 'x', two_factor_confirmed_at = created_at WHERE email = ?", [DEMO.manager]);
    try {
      await page.fill('#email', DEMO.manager);
      await page.fill('#password', DEMO.password);
      await page.click('#sign-in button[type=submit]');
      await page.waitForSelector('#code-row:not([hidden])', { timeout: 10_000, state: 'visible' });
      expect(await page.$eval('#sign-in-error', (e) => e.textContent)).toMatch(/two-factor/i);
      expect(await page.$eval('#board', (e) => (e as HTMLElement).hidden)).toBe(true);
    } finally {
      await t.db.query('UPDATE users SET two_factor_secret = NULL, two_factor_confirmed_at = NULL WHERE email = ?', [DEMO.manager]);
    }
  }, 60_000);
});

/** A morning at the Downtown store: cash, card and on-account sales, a session closed short, then a second session. */
async function recordSales(t: TestApp): Promise<number> {
  const admin = await login(t, DEMO.admin);
  const api = () => request(t.http);
  const item = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
  const jane = Number((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
  const session = await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: 1, opening_balance: 100 });
  if (session.status !== 200) throw new Error(`open session: ${session.status}`);
  const carts: [Record<string, number>, string, string?][] = [
    [{ 'BEV-001': 2, 'HSE-001': 1 }, 'cash'],
    [{ 'BEV-001': 1 }, 'card'],
    [{ 'HSE-001': 2, 'BEV-001': 3 }, 'cash'],
    [{ 'HSE-001': 1 }, 'on_account', String(jane)],
  ];
  let n = 0;
  for (const [lines, method, customer] of carts) {
    const items = Object.entries(lines).map(([sku, qty]) => ({ id: item[sku], qty }));
    const priced = await api().post('/api/v1/pricing/cart').set(bearer(admin)).send({ store_id: 1, items, customer_id: customer });
    const total = priced.body.data.total as number;
    const sale = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(admin))
      .send({
        store_id: 1,
        idempotency_key: `dash-${++n}`,
        items,
        customer_id: customer,
        payments: [{ payment_method_code: method, amount: total }],
        total_amount: total,
      });
    if (sale.status !== 201) throw new Error(`sale ${n}: ${sale.status} ${JSON.stringify(sale.body)}`);
  }
  const closed = await api().post(`/api/v1/sessions/${session.body.data.id}/close`).set(bearer(admin)).send({ closing_balance: 99 });
  if (closed.status !== 200) throw new Error(`close session: ${closed.status}`);
  const second = await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: 1, opening_balance: 50 });
  const again = await api().post(`/api/v1/sessions/${second.body.data.id}/close`).set(bearer(admin)).send({ closing_balance: 50 });
  if (second.status !== 200 || again.status !== 200) throw new Error(`second session: ${second.status} ${again.status}`);
  return Number(second.body.data.id);
}

/** A webhook endpoint on a loopback receiver and two test sends: rows for the deliveries table. */
async function webhookDeliveries(t: TestApp, url: string): Promise<number> {
  const admin = await login(t, DEMO.admin);
  const endpoint = await request(t.http)
    .post('/api/v1/webhooks')
    .set(bearer(admin))
    .send({ url, events: ['sale.voided'] });
  if (endpoint.status !== 201) throw new Error(`webhook endpoint: ${endpoint.status} ${JSON.stringify(endpoint.body)}`);
  for (const type of ['sale.completed', 'sale.voided']) {
    const sent = await request(t.http).post(`/api/v1/webhooks/${endpoint.body.data.id}/test`).set(bearer(admin)).send({ type });
    if (sent.status >= 300) throw new Error(`test send ${type}: ${sent.status} ${JSON.stringify(sent.body)}`);
  }
  return Number(endpoint.body.data.id);
}
