/**
 * The catalog bench's bare server doing the SAME work as the service (issue 29), in the server
 * child next to the running service:
 *   - the statements: every statement the service runs for a request path is captured once from
 *     the running service (its mysql2 driver, warm caches: what a steady request runs) and run
 *     again, in order, for that path: the same SQL with the same parameters, so the bare side
 *     follows whatever the service's repository does today (an older build included);
 *   - the token hashed as the service does and looked up in a process Map, the request counted in
 *     the service's rate-limit store in the route's tier (bareAccess, same-work.js);
 *   - the live price from the pricing engine (`priceCart`, one unit priced alone, as
 *     LivePriceService does) with the rules the service has active;
 *   - the answer built from the rows with a plain map: the same envelope and fields as the
 *     service's (checked against the service's answer for each path at start).
 * BENCH_SHOW_SQL=1 prints the statements captured for each path.
 * Barcodes and units of a POS search come from a process Map filled on a miss (the service reads
 * them from its per-process cache: a warm search runs no statement for them).
 */
const { built, builtExport, limiterStoreOf, bareAccess, listen, call } = require('./same-work');

/** Statements about the catalog and prices (not the outbox poller's or a job's that ran meanwhile). */
const CATALOG_TABLE = /\b`?(items|item_\w+|stock_levels|categories|price_\w+|pricing_\w+|bundle\w*|stores|warehouses|tax_\w+|currencies)`?\b/;

/** Captures the service's statements through its own mysql2 (resolved from the dist). Call before the app starts. */
function statementRecorder(dist) {
  const mysql = require(require.resolve('mysql2', { paths: [dist] }));
  const query = mysql.Connection.prototype.query;
  let current = null;
  mysql.Connection.prototype.query = function (sql, values) {
    if (current) {
      const text = typeof sql === 'string' ? sql : sql.sql;
      const params = typeof sql === 'string' || sql.values === undefined ? values : sql.values;
      if (CATALOG_TABLE.test(text)) current.push({ sql: text, values: Array.isArray(params) ? params : [] });
    }
    return query.apply(this, arguments);
  };
  const once = async (url, token) => {
    current = [];
    const answer = await call(url, { token });
    const statements = current;
    current = null;
    return { statements, answer };
  };
  const same = (a, b) => a.length === b.length && a.every((s, k) => s.sql === b[k].sql && JSON.stringify(s.values) === JSON.stringify(b[k].values));
  return {
    /**
     * The statements the service runs for `url` once warm: asked until two answers in a row ran
     * the same statements (a cold request fills the service's caches after it has answered, and
     * those reads must not be taken for the request's own).
     */
    async of(url, token) {
      let last = await once(url, token);
      let fewest = last;
      for (let k = 0; k < 5; k++) {
        const next = await once(url, token);
        if (same(last.statements, next.statements)) return next;
        if (next.statements.length < fewest.statements.length) fewest = next;
        last = next;
      }
      process.stderr.write(`warning: the statements of ${url} did not settle; the fewest seen are replayed\n`);
      return fewest;
    },
  };
}

const columns = (row) => {
  const out = {};
  for (const k of Object.keys(row)) out[k.replace(/^\w+Entity_/, '')] = row[k];
  return out;
};
/**
 * A one-statement read of several tables (the service's rawUnion: each branch selects its part
 * number `k`, the id `o`, then slots s0..sN): for each part, its table and the column in each of
 * its slots, read once from the captured SQL. Null for any other statement.
 */
const unionLayout = (sql) => {
  if (!/ AS k, t\.`?id`? AS o/.test(sql)) return null;
  return sql.split(' UNION ALL ').map((branch) => ({
    table: /FROM `?(\w+)`? t\b/.exec(branch)[1],
    slots: [...branch.matchAll(/t\.`?(\w+)`? AS (s\d+)/g)].map((m) => [m[1], m[2]]),
  }));
};
/** The rows of such a union as plain rows per table ({ parts: { item_barcodes: [...], ... } }). */
const unionParts = (layout, rows) => {
  const parts = Object.fromEntries(layout.map((l) => [l.table, []]));
  for (const r of rows) {
    const l = layout[Number(r.k)];
    const row = { id: r.o };
    for (const [column, slot] of l.slots) row[column] = r[slot];
    parts[l.table].push(row);
  }
  return { parts };
};
const iso = (v) => (v === null || v === undefined ? null : new Date(v instanceof Date ? v : `${String(v).replace(' ', 'T')}Z`).toISOString());

/**
 * Starts the same-work server on the service's paths (mounted at /api/v1, so the bench sends it
 * the very paths it sends the service). `paths` are the API paths the bench will ask for.
 */
async function catalogSameWork({ app, config, dist, recorder, base, token, db, paths }) {
  const express = require('express');
  const mysql = require('mysql2/promise');
  const { priceCart } = built('libs/pricing/src/domain/pricing-engine');
  const { fromMinor } = built('libs/kernel/src');
  const stockStatus = builtExport('libs/catalog/src', 'stockStatus') ?? ((q, r) => (q <= 0 ? 'out' : q <= r ? 'low' : 'in_stock'));
  const safeTimeZone = builtExport('libs/pricing/src', 'safeTimeZone') ?? ((tz) => tz);
  const pool = mysql.createPool({ ...db, connectionLimit: 20 });

  // Once: the store, its currency's decimals and the active rules (the service holds them in memory too).
  const [[store]] = await pool.query('SELECT id, currency_code, timezone, prices_include_tax FROM stores WHERE id = 1');
  const Decimals = builtExport('libs/pricing/src', 'CurrencyDecimals');
  const decimals = Decimals ? await app.get(Decimals, { strict: false }).of(store.currency_code) : 2;
  const Active = builtExport('libs/pricing/src/application/active-pricing.cache', 'ActivePricingCache');
  const rules = Active ? await app.get(Active, { strict: false }).activeRules() : [];
  const money = (v) => fromMinor(Number(v), decimals);
  const livePrice = (row) => {
    const r = priceCart({
      context: {
        storeId: store.id,
        customerGroupId: null,
        at: new Date(),
        timeZone: safeTimeZone(store.timezone),
        pricesIncludeTax: Boolean(Number(store.prices_include_tax)),
        taxExempt: true,
      },
      lines: [
        {
          key: '0',
          itemId: Number(row.id),
          categoryId: row.category_id === null ? null : Number(row.category_id),
          quantity: 1,
          basePrice: Number(row.base_price),
          priceBooks: [],
          taxRateBp: 0,
        },
      ],
      rules,
      bundles: [],
    }).lines[0];
    return { price: money(r.net), source: r.priceSource };
  };

  // Barcodes and units per item, read on a miss (POS search; the service's per-process cache).
  const refs = new Map();
  const refsOf = async (ids) => {
    const missing = ids.filter((id) => !refs.has(id));
    if (missing.length) {
      const [[codes], [units]] = await Promise.all([
        pool.query('SELECT item_id, barcode, item_unit_id FROM item_barcodes WHERE item_id IN (?) ORDER BY id', [missing]),
        pool.query('SELECT id, item_id, name, factor, price FROM item_units WHERE item_id IN (?) ORDER BY id', [missing]),
      ]);
      for (const id of missing) refs.set(id, { codes: codes.filter((c) => c.item_id === id), units: units.filter((u) => u.item_id === id) });
    }
    return ids.map((id) => refs.get(id));
  };
  const unitViews = (units, codes) =>
    units.map((u) => ({
      id: Number(u.id),
      name: u.name,
      factor: Number(u.factor),
      price: u.price === null ? null : money(u.price),
      barcode: codes.find((c) => Number(c.item_unit_id) === Number(u.id))?.barcode ?? null,
    }));

  /** POS search: the search rows (rank, the name's collation weight, id), deduplicated, the till's view of each. */
  const posSearch = async (results, limit) => {
    // The ranked search rows (exact, then names by prefix), then a second statement's rows if any.
    const ranked = results.find((r) => r.length && r[0].rnk !== undefined) ?? [];
    const rows = ranked.sort(
      (a, b) =>
        Number(a.rnk) - Number(b.rnk) ||
        Buffer.compare(Buffer.from(a.sort_key ?? a.sort_name ?? ''), Buffer.from(b.sort_key ?? b.sort_name ?? '')) ||
        Number(a.id) - Number(b.id),
    );
    for (const more of results) if (more !== ranked && more.length && more[0].sku !== undefined && more[0].rnk === undefined) rows.push(...more);
    const seen = new Set();
    const page = [];
    for (const r of rows) if (page.length < limit && !seen.has(Number(r.id)) && seen.add(Number(r.id))) page.push(r);
    const ids = page.map((r) => Number(r.id));
    const itemRefs = await refsOf(ids);
    return page.map((r, k) => {
      const { codes, units } = itemRefs[k];
      const quantity = r.sl_quantity === null || r.sl_quantity === undefined ? 0 : Number(r.sl_quantity);
      const reorder = r.sl_reorder_level === null || r.sl_reorder_level === undefined ? Number(r.reorder_level) : Number(r.sl_reorder_level);
      const price = livePrice(r);
      return {
        id: Number(r.id),
        sku: r.sku,
        name: r.name,
        category_id: r.category_id === null ? null : Number(r.category_id),
        barcodes: codes.filter((c) => c.item_unit_id === null).map((c) => c.barcode),
        price: price.price,
        price_source: price.source,
        base_price: money(r.base_price),
        tax_class_id: r.tax_class_id === null ? null : Number(r.tax_class_id),
        is_serial_tracked: Boolean(Number(r.is_serial_tracked)),
        base_unit: r.base_unit,
        units: unitViews(units, codes),
        stock: { warehouse_id: 1, quantity, reorder_level: reorder, stock_status: stockStatus(quantity, reorder) },
      };
    });
  };

  /** A JSON array column of a page row (d_barcodes, d_units): mysql2 may hand it over parsed. */
  const jsonRows = (v) => (v === null || v === undefined ? [] : typeof v === 'string' || Buffer.isBuffer(v) ? JSON.parse(String(v)) : v);
  const byId = (a, b) => Number(a.id) - Number(b.id);
  /** Since round 13 a first page's rows carry each item's barcodes, units and category name (d_* columns). */
  const inlineDetails = (rows) => ({
    codes: rows.flatMap((r) => jsonRows(r.d_barcodes).map((b) => ({ id: b.id, item_id: r.id, barcode: b.barcode, item_unit_id: b.unit }))).sort(byId),
    units: rows.flatMap((r) => jsonRows(r.d_units).map((u) => ({ ...u, item_id: r.id }))).sort(byId),
    categories: rows.filter((r) => r.d_category !== null).map((r) => ({ id: r.category_id, name: r.d_category })),
  });

  /**
   * GET /items: the page's rows (with their window count, or a count statement), barcodes, units and
   * categories from the other statements or the rows. `held`: the total this side holds for the
   * path (since round 14 the service counts a filter once and holds its total: ItemListTotals), for
   * pages whose statements no longer count.
   */
  const itemsPage = (results, perPage, held, page = 1) => {
    const rows = results.find((r) => r.length && r[0].sku !== undefined) ?? [];
    const inline = rows.length && rows[0].d_barcodes !== undefined ? inlineDetails(rows) : null;
    const rest = results.filter((r) => r !== rows);
    const of = (key) => (rest.find((r) => r.length && columns(r[0])[key] !== undefined) ?? []).map(columns);
    // One union of the three (since round 11), or three reads (older builds).
    const union = rest.find((r) => r.parts)?.parts;
    const codes = inline?.codes ?? (union ? union.item_barcodes : of('barcode'));
    const units = inline?.units ?? (union ? union.item_units : of('factor'));
    const categories = new Map((inline?.categories ?? (union ? union.categories : of('slug'))).map((c) => [Number(c.id), c.name]));
    const counted = rest.find((r) => r.length === 1 && r[0].n !== undefined);
    const total = rows.length ? Number(rows[0].total_count ?? counted?.[0].n ?? held ?? rows.length) : Number(counted?.[0].n ?? held ?? 0);
    const data = rows.map((r) => {
      const id = Number(r.id);
      const mine = codes.filter((c) => Number(c.item_id) === id);
      const categoryId = r.category_id === null ? null : Number(r.category_id);
      return {
        id,
        sku: r.sku,
        name: r.name,
        description: r.description ?? null,
        category_id: categoryId,
        category: categoryId === null ? null : { id: categoryId, name: categories.get(categoryId) ?? null },
        base_price: money(r.base_price),
        cost: money(r.cost),
        tax_class_id: r.tax_class_id === null ? null : Number(r.tax_class_id),
        base_unit: r.base_unit,
        is_active: Boolean(Number(r.is_active)),
        is_serial_tracked: Boolean(Number(r.is_serial_tracked)),
        reorder_level: Number(r.reorder_level),
        reorder_quantity: Number(r.reorder_quantity),
        barcodes: mine.filter((c) => c.item_unit_id === null).map((c) => c.barcode),
        units: unitViews(
          units.filter((u) => Number(u.item_id) === id),
          mine,
        ),
        version: Number(r.version),
        created_at: iso(r.created_at),
        updated_at: iso(r.updated_at),
        deleted_at: iso(r.deleted_at),
      };
    });
    return { success: true, data, meta: { current_page: page, last_page: Math.max(1, Math.ceil(total / perPage)), per_page: perPage, total } };
  };

  // The statements of every path, captured from the service.
  const replays = new Map();
  /** Each items path's total, held as the service holds it. */
  const totals = new Map();
  let differs = 0;
  const sameApp = express();
  const run = async (url) => {
    const statements = replays.get(url);
    const [first, ...rest] = statements;
    const rowsOf = (s, rows) => (s.layout ? unionParts(s.layout, rows) : rows);
    const head = first ? rowsOf(first, (await pool.query(first.sql, first.values))[0]) : [];
    const tail = await Promise.all(rest.map((s) => pool.query(s.sql, s.values).then((r) => rowsOf(s, r[0]))));
    return [head, ...tail];
  };
  const answerOf = async (url, query) =>
    url.startsWith('/api/v1/items')
      ? itemsPage(await run(url), Number(query.per_page ?? 50), totals.get(url), Number(query.page ?? 1))
      : { success: true, data: await posSearch(await run(url), Number(query.limit ?? 20)) };
  const pos = bareAccess({ storage: limiterStoreOf(app), tier: 'pos', limit: config.rateLimit.pos, permission: 'pos.access' });
  const standard = bareAccess({ storage: limiterStoreOf(app), tier: 'standard', limit: config.rateLimit.standard, permission: 'items.view' });
  const me = (await call(`${base}/auth/me`, { token })).data;
  pos.add(token, me);
  standard.add(token, me);
  const route = (access) => async (req, res) => {
    if (!(await access(req, res))) return;
    if (!replays.has(req.originalUrl)) {
      res.status(404).json({ success: false, message: 'Not a bench path.' });
      return;
    }
    res.json(await answerOf(req.originalUrl, req.query));
  };
  sameApp.get('/api/v1/pos/products/search', route(pos));
  sameApp.get('/api/v1/items', route(standard));
  for (const path of new Set(paths)) {
    const { statements, answer } = await recorder.of(`${base}${path.replace(/^\/api\/v1/, '')}`, token);
    replays.set(
      path,
      statements.map((x) => ({ ...x, layout: unionLayout(x.sql) })),
    );
    if (answer.meta?.total !== undefined) totals.set(path, answer.meta.total);
    if (process.env.BENCH_SHOW_SQL)
      process.stderr.write(`${path}: ${statements.length} statement(s)\n${statements.map((x) => `  ${x.sql} ${JSON.stringify(x.values)}`).join('\n')}\n`);
    const query = Object.fromEntries(new URL(path, 'http://x').searchParams);
    if (JSON.stringify(await answerOf(path, query)) !== JSON.stringify(answer)) differs++;
  }
  if (differs) process.stderr.write(`warning: the same-work answer differs from the service's for ${differs} of ${replays.size} paths\n`);
  return listen(sameApp);
}

module.exports = { statementRecorder, catalogSameWork };
