/*
 * The back-office dashboard: plain browser JavaScript, no build step, served by the API with
 * ECharts from its npm package. The bearer token lives in this closure only (never in
 * localStorage or a cookie): a reload signs the user out. Every chart a report returns in its
 * `charts` array is drawn by one generic function, so a new chart needs no new code here.
 */
(() => {
  'use strict';

  const API = '/api/v1';
  /** The reports shown, in order; `rows` lists the columns of a table drawn from the report's rows. */
  const PANELS = [
    { report: 'sales', title: 'Sales and revenue over time', wide: true },
    { report: 'payments', title: 'Payment mix' },
    { report: 'heatmap', title: 'Sales by hour and weekday', wide: true },
    {
      report: 'products/abc',
      title: 'Top products (ABC)',
      rows: ['rank', 'name', 'sku', 'revenue', 'share_percent', 'cumulative_percent', 'class'],
      limit: 10,
    },
    { report: 'inventory/stock', title: 'Stock status' },
    {
      report: 'inventory/replenishment',
      title: 'Replenishment',
      rows: ['sku', 'name', 'warehouse_name', 'on_hand', 'reorder_level', 'suggested_order', 'estimated_cost'],
      limit: 10,
    },
    { report: 'invoices/aging', title: 'Invoice aging' },
    {
      report: 'closeout',
      title: 'Cashier sessions',
      rows: ['date', 'cashier_name', 'session_id', 'session_status', 'total', 'expected_cash', 'counted_cash', 'discrepancy'],
      limit: 12,
      flag: (row) => Number(row.discrepancy ?? 0) !== 0,
    },
  ];

  let token = null;
  let stores = [];
  let charts = [];

  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs = {}, text) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };

  async function call(path, options = {}) {
    const headers = { Accept: 'application/json' };
    if (options.body) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(API + path, { ...options, headers });
    const body = await res.json().catch(() => ({}));
    return { status: res.status, body };
  }

  // ---- formatting ------------------------------------------------------------------------
  const currentStore = () => stores.find((s) => String(s.id) === $('store').value);
  const money = (value, currency) => {
    const code = currency || currentStore()?.currency_code;
    if (value === null || value === undefined || Number.isNaN(Number(value))) return '–';
    return code ? new Intl.NumberFormat(undefined, { style: 'currency', currency: code }).format(Number(value)) : number(value);
  };
  const number = (value) =>
    value === null || value === undefined ? '–' : new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 }).format(Number(value));
  const figure = (f) => {
    if (f.unit === 'money') return money(f.value, f.currency);
    if (f.unit === 'percent') return f.value === null ? '–' : `${number(f.value)} %`;
    return number(f.value);
  };
  const MONEY_COLUMN = /(amount|total|sales|revenue|balance|cash|discrepancy|value|cost|refund|profit|price)/;

  // ---- sign in -----------------------------------------------------------------------------
  $('sign-in').addEventListener('submit', async (event) => {
    event.preventDefault();
    $('sign-in-error').textContent = '';
    const body = { email: $('email').value, password: $('password').value };
    if (!$('code-row').hidden && $('code').value) body.two_factor_code = $('code').value.trim();
    const res = await call('/auth/login', { method: 'POST', body: JSON.stringify(body) });
    if (res.status === 201 || res.status === 200) {
      token = res.body.data.token;
      $('password').value = '';
      $('code').value = '';
      await start(res.body.data.user);
      return;
    }
    const codeError = res.body.errors && res.body.errors.two_factor_code;
    if (res.status === 422 && codeError) {
      $('code-row').hidden = false;
      $('code').focus();
    }
    $('sign-in-error').textContent = (codeError && codeError[0]) || res.body.message || `Sign-in failed (${res.status})`;
  });

  $('sign-out').addEventListener('click', async () => {
    await call('/auth/logout', { method: 'POST' }).catch(() => undefined);
    token = null;
    location.reload();
  });

  async function start(user) {
    $('sign-in').hidden = true;
    $('board').hidden = false;
    $('sign-out').hidden = false;
    $('who').textContent = user && user.name ? user.name : '';
    const res = await call('/stores?per_page=100');
    stores = res.status === 200 ? res.body.data : [];
    const select = $('store');
    select.replaceChildren(...stores.map((s) => el('option', { value: String(s.id) }, `${s.name} (${s.currency_code})`)));
    const today = new Date();
    const from = new Date(today.getTime() - 29 * 86400000);
    $('date-to').value = today.toISOString().slice(0, 10);
    $('date-from').value = from.toISOString().slice(0, 10);
    await load();
  }

  $('filters').addEventListener('submit', (event) => {
    event.preventDefault();
    void load();
  });

  // ---- the board ---------------------------------------------------------------------------
  async function load() {
    for (const c of charts) c.dispose();
    charts = [];
    const query = new URLSearchParams({ store_id: $('store').value, date_from: $('date-from').value, date_to: $('date-to').value }).toString();
    $('status').textContent = 'Loading…';
    const [overview, ...reports] = await Promise.all([call(`/reports/overview?${query}`), ...PANELS.map((p) => call(`/reports/${p.report}?${query}`))]);
    drawKpis(overview);
    const panels = $('panels');
    panels.replaceChildren();
    PANELS.forEach((panel, i) => drawPanel(panels, panel, reports[i]));
    await drawDeliveries(panels);
    $('status').textContent = '';
    document.body.dataset.loaded = 'true';
  }

  function drawKpis(res) {
    const box = $('kpis');
    box.replaceChildren();
    if (res.status !== 200) return;
    const wanted = ['net_sales', 'net_revenue', 'gross_profit', 'margin', 'sales', 'average_sale', 'units', 'voids'];
    for (const f of res.body.data.summary.filter((x) => wanted.includes(x.key))) {
      const card = el('div', { class: 'kpi' });
      card.append(el('b', {}, figure(f)), el('span', {}, f.label));
      box.append(card);
    }
  }

  function drawPanel(parent, panel, res) {
    if (res.status !== 200) {
      const card = el('section', { class: 'card' });
      card.append(el('h3', {}, panel.title), el('p', { class: 'empty' }, res.body.message || `Not available (${res.status})`));
      parent.append(card);
      return;
    }
    for (const chart of res.body.data.charts) {
      const card = el('section', { class: `card${panel.wide || chart.type === 'heatmap' ? ' wide' : ''}` });
      card.append(el('h3', {}, chart.title), el('p', { class: 'sub' }, panel.title));
      const box = el('div', { class: 'chart', 'data-report': panel.report, 'data-chart-type': chart.type });
      card.append(box);
      parent.append(card);
      drawChart(box, chart);
    }
    if (panel.rows) {
      const card = el('section', { class: 'card wide' });
      card.append(el('h3', {}, panel.title));
      card.append(table(res.body.data.rows.slice(0, panel.limit), panel.rows, panel.flag));
      parent.append(card);
    }
  }

  /** Any chart of a report payload: {type: line|bar|pie|heatmap, title, series: [{name, currency, data: [{x, y, value?}]}]}. */
  function drawChart(box, chart) {
    const instance = echarts.init(box, null, { renderer: 'svg' });
    charts.push(instance);
    const currency = chart.series.find((s) => s.currency)?.currency;
    const fmt = (v) => (currency ? money(v, currency) : number(v));
    let option;
    let points = 0;
    if (chart.type === 'pie') {
      const data = chart.series.flatMap((s) => s.data.map((p) => ({ name: String(p.x), value: p.y })));
      points = data.length;
      option = {
        tooltip: { trigger: 'item', valueFormatter: fmt },
        legend: { bottom: 0, type: 'scroll' },
        series: [{ type: 'pie', radius: ['35%', '65%'], data }],
      };
    } else if (chart.type === 'heatmap') {
      const hours = Array.from({ length: 24 }, (_, h) => h);
      const days = [...new Set(chart.series.flatMap((s) => s.data.map((p) => String(p.y))))];
      const data = chart.series[0] ? chart.series[0].data.map((p) => [hours.indexOf(Number(p.x)), days.indexOf(String(p.y)), p.value ?? 0]) : [];
      points = data.length;
      const max = Math.max(1, ...data.map((d) => d[2]));
      option = {
        tooltip: { valueFormatter: fmt },
        grid: { left: 48, right: 16, top: 8, bottom: 84 },
        xAxis: { type: 'category', data: hours, splitArea: { show: true } },
        yAxis: { type: 'category', data: days, splitArea: { show: true } },
        visualMap: { min: 0, max, calculable: true, orient: 'horizontal', left: 'center', bottom: 0 },
        series: [{ type: 'heatmap', data, name: chart.series[0] ? chart.series[0].name : '' }],
      };
    } else {
      const xs = [...new Set(chart.series.flatMap((s) => s.data.map((p) => String(p.x))))];
      const series = chart.series.map((s) => {
        const byX = new Map(s.data.map((p) => [String(p.x), p.y]));
        points += s.data.length;
        return {
          type: chart.type,
          name: s.currency && s.currency !== s.name ? `${s.name} (${s.currency})` : s.name,
          data: xs.map((x) => byX.get(x) ?? null),
        };
      });
      option = {
        tooltip: { trigger: 'axis', valueFormatter: fmt },
        legend: { bottom: 0, type: 'scroll' },
        grid: { left: 64, right: 16, top: 16, bottom: 56 },
        xAxis: { type: 'category', data: xs },
        yAxis: { type: 'value', axisLabel: { formatter: (v) => (currency ? money(v, currency) : number(v)) } },
        series,
      };
    }
    instance.setOption(option);
    box.dataset.points = String(points);
    box.dataset.rendered = 'true';
  }

  function table(rows, columns, flag) {
    if (!rows.length) return el('p', { class: 'empty' }, 'Nothing in this period.');
    const present = columns.filter((c) => rows.some((r) => r[c] !== undefined));
    const wrap = el('div', { class: 'table-wrap' });
    const t = el('table');
    const head = el('tr');
    for (const c of present) head.append(el('th', {}, c.replace(/_(name|percent)$/, '').replace(/_/g, ' ')));
    t.append(head);
    for (const row of rows) {
      const tr = el('tr', flag && flag(row) ? { class: 'flag' } : {});
      for (const c of present) {
        const v = row[c];
        const isNumber = typeof v === 'number';
        const text = isNumber ? (MONEY_COLUMN.test(c) ? money(v, row.currency) : number(v)) : v === null || v === undefined ? '–' : String(v);
        tr.append(el('td', isNumber ? { class: 'num' } : {}, text));
      }
      t.append(tr);
    }
    wrap.append(t);
    return wrap;
  }

  /** The last webhook deliveries over every endpoint (needs webhooks.manage). */
  async function drawDeliveries(parent) {
    const card = el('section', { class: 'card wide', id: 'deliveries' });
    card.append(el('h3', {}, 'Last webhook deliveries'));
    parent.append(card);
    const endpoints = await call('/webhooks?per_page=100');
    if (endpoints.status !== 200) {
      card.append(el('p', { class: 'empty' }, endpoints.body.message || 'Not available.'));
      return;
    }
    const lists = await Promise.all(endpoints.body.data.slice(0, 20).map((e) => call(`/webhooks/${e.id}/deliveries?per_page=10`)));
    const urls = new Map(endpoints.body.data.map((e) => [e.id, e.url]));
    const rows = lists
      .flatMap((l) => (l.status === 200 ? l.body.data : []))
      .sort((a, b) => (a.created_at < b.created_at ? 1 : -1))
      .slice(0, 10)
      .map((d) => ({ ...d, endpoint: urls.get(d.endpoint_id) }));
    card.append(table(rows, ['created_at', 'event', 'endpoint', 'status', 'attempts', 'last_status_code', 'last_error'], (d) => d.status === 'failed'));
  }

  window.addEventListener('resize', () => charts.forEach((c) => c.resize()));
})();
