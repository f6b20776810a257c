/// <reference lib="dom" />
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { applyJournal } from '../reports/report-helpers';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';
import { boardFacts, heatmapTip, keyColumnsShown, layoutFacts } from './dashboard-facts';
import { recordSales, webhookDeliveries } from './dashboard-fixtures';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(__dirname, '../artifacts');
const available = existsSync(CHROMIUM);
if (!available) process.stdout.write(`dashboard browser test skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)\n`);

const db = (t: TestApp, sql: string): Promise<Record<string, unknown>[]> => t.db.query(sql);

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
    const { page, problems } = await opened(viewport);
    await signIn(page, email);
    await page.waitForSelector('body[data-loaded="true"]', { timeout: 30_000, state: 'attached' });
    return { page, problems };
  }

  /** The sign-in form, with every console error, failed or 4xx/5xx request and off-service request in `problems`. */
  async function opened(viewport: { width: number; height: number }): Promise<{ page: Page; problems: string[] }> {
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
    return { page, problems };
  }

  async function signIn(page: Page, email: string, password: string = DEMO.password): Promise<void> {
    await page.fill('#email', email);
    await page.fill('#password', password);
    await page.click('#sign-in button[type=submit]');
  }

  /** Sets the period in the filters and asks for it; resolves once the board (or its error) is drawn. */
  async function show(page: Page, from: string, to: string): Promise<void> {
    await page.evaluate(() => delete document.body.dataset.loaded);
    await page.fill('#date-from', from);
    await page.fill('#date-to', to);
    await page.click('#filters button[type=submit]');
    await page.waitForSelector('body[data-loaded="true"]', { timeout: 30_000, state: 'attached' });
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
    // Every headline figure the board asks for is one the overview report sends (issue 31 item 3).
    const kpi = Object.fromEntries(f.kpiKeys.map((k, i) => [k, f.kpis[i]]));
    expect(f.kpiKeys).toEqual(['net_sales', 'net_revenue', 'gross_profit', 'margin_percent', 'sales_count', 'average_sale', 'items_sold', 'voids']);
    expect(kpi.margin_percent).toMatch(/^-?\d+(\.\d+)? %$/);
    for (const k of ['sales_count', 'items_sold', 'voids']) expect({ k, v: kpi[k] }).toMatchObject({ v: expect.stringMatching(/^\d[\d,]*$/) });

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

    // 5. The heatmap's values are sales counts: the busiest cell's tooltip names its weekday and hour
    // and its count, never money; the scale's end labels are counts in dark ink (issue 31 item 2).
    const period = await page.evaluate(() => [
      (document.getElementById('date-from') as HTMLInputElement).value,
      (document.getElementById('date-to') as HTMLInputElement).value,
    ]);
    const heat = await request(t.http)
      .get(`/api/v1/reports/heatmap?store_id=1&date_from=${period[0]}&date_to=${period[1]}`)
      .set(bearer(await login(t, DEMO.admin)));
    const busiest = (k: string) => (heat.body.data.summary as { key: string; value: number }[]).find((x) => x.key === k)!.value;
    const tip = await heatmapTip(page, ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'][busiest('busiest_weekday')], busiest('busiest_hour'));
    const hour = String(busiest('busiest_hour')).padStart(2, '0');
    const day = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'][busiest('busiest_weekday')];
    const n = busiest('busiest_sales');
    expect(tip.text).toBe(`${day} ${hour}:00–${hour}:59 ${n} ${n === 1 ? 'sale' : 'sales'}`);
    expect(tip.scale).toEqual(['0', String(busiest('busiest_sales'))]);
    for (const fill of tip.scaleInk) expect(fill).toBe('#1f2933');

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

  // 7. A phone: the figures that matter in wide tables stay in view; a table still wider than its
  // card says so (issue 31 item 4).
  it('phone 390 x 844: key columns of wide tables in view, a cue on a table that scrolls', async () => {
    const { page, problems } = await signedIn(DEMO.admin, { width: 390, height: 844 });
    await page.screenshot({ path: join(ARTIFACTS, 'dashboard-phone.png'), fullPage: true });
    for (const name of ['inventory/replenishment', 'closeout'])
      await (await page.$(`[data-table="${name}"]`))!.screenshot({ path: join(ARTIFACTS, `dashboard-phone-${name.replace(/\W/g, '-')}.png`) });
    const l = await layoutFacts(page);
    expect({ scrollWidth: l.scrollWidth, overflowing: l.overflowing }).toEqual({ scrollWidth: 390, overflowing: [] });
    expect(await keyColumnsShown(page, 'inventory/replenishment')).toEqual(['Item', 'On hand', 'Order', 'Est. cost']);
    expect(await keyColumnsShown(page, 'closeout')).toEqual(['Day', 'Total', 'Counted cash', 'Discrepancy']);
    // What gave way shows under another column: the warehouse under the item, the cashier under the day.
    const f = await boardFacts(page);
    const cashiers = (await db(t, 'SELECT DISTINCT name FROM users')).map((u) => String(u.name));
    for (const [day] of f.tables.find((tb) => tb.name === 'closeout')!.rows) expect(cashiers).toContain(day.split('\n')[1]);
    const warehouses = (await db(t, 'SELECT name FROM warehouses')).map((w) => String(w.name));
    for (const [item] of f.tables.find((tb) => tb.name === 'inventory/replenishment')!.rows) expect(warehouses).toContain(item.split('\n')[1]);
    for (const tb of l.tables) expect(tb).toMatchObject(tb.fits ? { cue: false } : { cue: true, scrollable: true });
    expect(problems).toEqual([]);
  }, 60_000);

  // 8. Errors say what the API said, once, where the user acts (issue 31 item 3).
  it('sign-in: a wrong password shows the reason the API gives', async () => {
    const { page } = await opened({ width: 1024, height: 768 });
    await signIn(page, DEMO.admin, 'not-the-password');
    await page.waitForFunction(() => document.getElementById('sign-in-error')?.textContent);
    expect(await page.$eval('#sign-in-error', (e) => e.textContent)).toBe('These credentials do not match our records.');
    expect(await page.$eval('#board', (e) => (e as HTMLElement).hidden)).toBe(true);
  }, 60_000);

  it('period: From after To is refused in the form, a span over 366 days shows the API message once', async () => {
    const { page, problems } = await signedIn(DEMO.manager, { width: 1280, height: 800 });
    const [from, to] = await page.evaluate(() => [
      (document.getElementById('date-from') as HTMLInputElement).value,
      (document.getElementById('date-to') as HTMLInputElement).value,
    ]);
    const board = () =>
      page.evaluate(() => ({
        error: document.getElementById('filters-error')?.textContent ?? '',
        cards: document.querySelectorAll('#kpis > *, #panels > *').length,
      }));

    await show(page, to, from); // reversed: nothing asked of the API
    expect(await board()).toEqual({ error: 'From must be on or before To.', cards: 0 });
    expect(problems).toEqual([]);

    await show(page, '2024-01-01', '2025-06-30');
    const api = await request(t.http)
      .get('/api/v1/reports/overview?store_id=1&date_from=2024-01-01&date_to=2025-06-30')
      .set(bearer(await login(t, DEMO.manager)));
    expect(api.status).toBe(422);
    expect(await board()).toEqual({ error: [...new Set(Object.values(api.body.errors as Record<string, string[]>).flat())].join(' '), cards: 0 });
    expect(problems.filter((p) => !p.startsWith('console: Failed to load resource'))).toEqual([expect.stringMatching(/^422 .*\/reports\/overview\?/)]);

    await show(page, from, to);
    expect(await board()).toMatchObject({ error: '' });
    expect((await boardFacts(page)).kpis).toHaveLength(8);
  }, 60_000);

  it('an ended session (token revoked) goes back to the sign-in form with a message, and signing in again works', async () => {
    const { page, problems } = await opened({ width: 1280, height: 800 });
    const answer = page.waitForResponse((r) => r.url().endsWith('/auth/login'));
    await signIn(page, DEMO.manager);
    const token = ((await (await answer).json()) as { data: { token: string } }).data.token;
    await page.waitForSelector('body[data-loaded="true"]', { timeout: 30_000, state: 'attached' });
    const [from, to] = await page.evaluate(() => [
      (document.getElementById('date-from') as HTMLInputElement).value,
      (document.getElementById('date-to') as HTMLInputElement).value,
    ]);
    expect((await request(t.http).post('/api/v1/auth/logout').set(bearer(token))).status).toBeLessThan(300);

    await show(page, from, to);
    expect(await page.$eval('#board', (e) => (e as HTMLElement).hidden)).toBe(true);
    expect(await page.$eval('#sign-in', (e) => (e as HTMLElement).hidden)).toBe(false);
    expect(await page.$eval('#sign-in-error', (e) => e.textContent)).toBe('Your session has ended. Sign in again.');
    expect(await page.$$('.chart')).toHaveLength(0);
    expect(problems.filter((p) => !p.startsWith('console: Failed to load resource'))).toEqual([expect.stringMatching(/^401 /)]);

    await page.evaluate(() => delete document.body.dataset.loaded);
    await signIn(page, DEMO.manager);
    await page.waitForSelector('body[data-loaded="true"]', { timeout: 30_000, state: 'attached' });
    expect((await boardFacts(page)).kpis).toHaveLength(8);
    expect(await page.$eval('#sign-in-error', (e) => e.textContent)).toBe('');
  }, 60_000);

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
