/*
 * The back-office dashboard: plain browser JavaScript, no build step, served by the API with
 * ECharts from its npm package. The bearer token lives in this closure only (never in
 * localStorage or a cookie): a reload signs the user out. Every chart a report returns in its
 * `charts` array is drawn by one generic function, so a new chart needs no new code here. The
 * page asks only for what the signed-in role may see (the permissions GET /auth/me lists), so a
 * manager or a cashier causes no 403. Values are written by format.js (window.PosFormat).
 */
(() => {
  'use strict';

  const API = '/api/v1';
  const F = window.PosFormat;
  const T = window.PosTables;
  const { PANELS, KPIS } = window.PosPanels;

  let token = null;
  let permissions = new Set();
  let stores = [];
  let charts = [];

  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs = {}, text) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const can = (perm) => permissions.has(perm);
  const pad = (n) => String(n).padStart(2, '0');
  const localDay = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

  async function call(path, options = {}) {
    const headers = { Accept: 'application/json' };
    if (options.body) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(API + path, { ...options, headers });
    const body = await res.json().catch(() => ({}));
    // An expired or revoked token: back to the sign-in form (the callers stop on !token).
    if (res.status === 401 && token && path !== '/auth/login') ended();
    return { status: res.status, body };
  }

  /** What went wrong as the API says it: its field messages (each once), else its message. */
  const problem = (res) => {
    const fields = [...new Set(Object.values((res.body && res.body.errors) || {}).flat())];
    return fields.length ? fields.join(' ') : (res.body && res.body.message) || `Request failed (${res.status})`;
  };

  const figure = (f) => {
    if (f.unit === 'money') return F.money(f.value, f.currency);
    if (f.unit === 'percent') return F.percent(f.value);
    return F.number(f.value);
  };

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
      await start();
      return;
    }
    const codeError = res.body.errors && res.body.errors.two_factor_code;
    if (res.status === 422 && codeError) {
      $('code-row').hidden = false;
      $('code').focus();
    }
    $('sign-in-error').textContent = (codeError && codeError[0]) || problem(res);
  });

  $('sign-out').addEventListener('click', async () => {
    await call('/auth/logout', { method: 'POST' }).catch(() => undefined);
    token = null;
    location.reload();
  });

  /** The session ended under the board (token expired or revoked): the sign-in form, saying so. */
  function ended() {
    token = null;
    permissions = new Set();
    clearBoard();
    $('board').hidden = true;
    $('sign-out').hidden = true;
    $('who').textContent = '';
    $('sign-in').hidden = false;
    $('sign-in-error').textContent = 'Your session has ended. Sign in again.';
    $('password').focus();
    document.body.dataset.loaded = 'true';
  }

  function clearBoard() {
    for (const c of charts) c.dispose();
    charts = [];
    $('kpis').replaceChildren();
    $('panels').replaceChildren();
    $('status').textContent = '';
  }

  async function start() {
    const [me, currencies] = await Promise.all([call('/auth/me'), call('/currencies')]);
    if (!token) return;
    const user = me.status === 200 ? me.body.data : {};
    permissions = new Set(user.permissions || []);
    if (currencies.status === 200) F.useCurrencies(currencies.body.data);
    $('sign-in').hidden = true;
    $('board').hidden = false;
    $('sign-out').hidden = false;
    $('filters').hidden = false;
    $('filters-error').textContent = '';
    $('who').textContent = [user.name, user.role && user.role.name].filter(Boolean).join(' · ');
    if (!PANELS.some((p) => can(p.perm)) && !can('reports.view')) {
      $('filters').hidden = true;
      const card = el('section', { class: 'card wide', id: 'no-reports' });
      card.append(
        el('h3', {}, 'No reports for your role'),
        el(
          'p',
          { class: 'empty' },
          'The back office shows reports to roles with report permissions (reports.*, inventory.reports). Ask an administrator if you need them.',
        ),
      );
      $('panels').replaceChildren(card);
      document.body.dataset.loaded = 'true';
      return;
    }
    const res = await call('/stores?per_page=100');
    if (!token) return;
    stores = res.status === 200 ? res.body.data : [];
    $('store').replaceChildren(...stores.map((s) => el('option', { value: String(s.id) }, `${s.name} (${s.currency_code})`)));
    const today = new Date();
    $('date-to').value = localDay(today);
    $('date-from').value = localDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 29));
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
    $('filters-error').textContent = '';
    const [from, to] = [$('date-from').value, $('date-to').value];
    if (from > to) return refused('From must be on or before To.');
    const query = new URLSearchParams({ store_id: $('store').value, date_from: from, date_to: to }).toString();
    $('status').textContent = 'Loading…';
    const shown = PANELS.filter((p) => can(p.perm));
    const paths = shown.map((p) => `/reports/${p.report}?${query}`);
    if (can('reports.view')) paths.unshift(`/reports/overview?${query}`);
    // One report first: a refused period (422) or an ended session (401) is told once, by the
    // form, not by every card.
    const first = await call(paths[0]);
    if (!token) return;
    if (first.status === 422) return refused(problem(first));
    const answers = [first, ...(await Promise.all(paths.slice(1).map((p) => call(p))))];
    if (!token) return;
    drawKpis(can('reports.view') ? answers.shift() : null);
    const panels = $('panels');
    panels.replaceChildren();
    shown.forEach((panel, i) => drawPanel(panels, panel, answers[i]));
    if (can('webhooks.manage')) await drawDeliveries(panels);
    if (!token) return;
    T.cueAll();
    $('status').textContent = '';
    document.body.dataset.loaded = 'true';
  }

  /** A period the form or the API refuses: its message by the form, and no board for it. */
  function refused(message) {
    clearBoard();
    $('filters-error').textContent = message;
    document.body.dataset.loaded = 'true';
  }

  function drawKpis(res) {
    const box = $('kpis');
    box.replaceChildren();
    if (!res || res.status !== 200) return;
    const byKey = new Map(res.body.data.summary.map((f) => [f.key, f]));
    for (const f of KPIS.map((k) => byKey.get(k)).filter(Boolean)) {
      const card = el('div', { class: 'kpi', 'data-key': f.key });
      card.append(el('b', {}, figure(f)), el('span', {}, f.label));
      box.append(card);
    }
  }

  function drawPanel(parent, panel, res) {
    if (res.status !== 200) {
      const card = el('section', { class: 'card' });
      card.append(el('h3', {}, panel.title), el('p', { class: 'empty' }, problem(res)));
      parent.append(card);
      return;
    }
    const { charts: list, rows, columns } = res.body.data;
    for (const chart of list) {
      const card = el('section', { class: `card${panel.wide || chart.type === 'heatmap' ? ' wide' : ''}` });
      card.append(el('h3', {}, chart.title), el('p', { class: 'sub' }, panel.title));
      parent.append(card);
      if (!chart.series.some((s) => s.data.length)) {
        card.append(el('p', { class: 'empty chart-empty' }, 'Nothing in this period.'));
        continue;
      }
      const box = el('div', { class: 'chart', 'data-report': panel.report, 'data-chart-type': chart.type });
      card.append(box);
      drawChart(box, chart, panel.percent && panel.percent.test(chart.title) ? 'percent' : panel.counts ? 'count' : null, panel.counts);
    }
    if (panel.rows) {
      const card = el('section', { class: 'card wide', 'data-table': panel.report });
      const units = new Map((columns || []).map((c) => [c.key, c.unit]));
      card.append(el('h3', {}, panel.title), T.table(T.newestFirst(rows).slice(0, panel.limit), panel.rows, units, { flag: panel.flag, under: panel.under }));
      parent.append(card);
    }
  }

  // ---- charts ------------------------------------------------------------------------------
  /** A category of an x axis or a pie slice: days short ("26 Nov"), enums as words. */
  const category = (x) => (F.ISO_DATE.test(String(x)) ? F.date(String(x), true) : F.text(x));

  /** Any chart of a report payload: {type: line|bar|pie|heatmap, title, series: [{name, currency, data: [{x, y, value?}]}]}. */
  function drawChart(box, chart, unit, noun) {
    const instance = echarts.init(box, null, { renderer: 'svg' });
    charts.push(instance);
    const currencies = [...new Set(chart.series.map((s) => s.currency).filter(Boolean))];
    const valueOf = (currency) => (v) => (unit === 'percent' ? F.percent(v) : unit !== 'count' && currency ? F.money(v, currency) : F.number(v));
    const axisValue = valueOf(currencies.length === 1 ? currencies[0] : null);
    let option;
    let points = 0;
    if (chart.type === 'pie') {
      const data = chart.series.flatMap((s) => s.data.map((p) => ({ name: category(p.x), value: p.y })));
      points = data.length;
      option = {
        tooltip: { trigger: 'item', valueFormatter: axisValue },
        legend: { bottom: 0, type: 'scroll' },
        series: [{ type: 'pie', radius: ['35%', '65%'], data }],
      };
    } else if (chart.type === 'heatmap') {
      const hours = Array.from({ length: 24 }, (_, h) => h);
      const days = [...new Set(chart.series.flatMap((s) => s.data.map((p) => String(p.y))))];
      const first = chart.series[0];
      const data = first ? first.data.map((p) => [hours.indexOf(Number(p.x)), days.indexOf(String(p.y)), p.value ?? 0]) : [];
      points = data.length;
      const max = Math.max(1, ...data.map((d) => d[2]));
      const cellValue = valueOf(first && first.currency);
      // "Thursday 12:00–12:59", then "6 sales" (or the value as money or percent for such a chart).
      const tip = ({ value: [h, d, v] }) =>
        `${escape(WEEKDAYS[days[d]] || days[d])} ${pad(h)}:00–${pad(h)}:59<br><b>${escape(noun ? `${F.number(v)} ${v === 1 ? noun[0] : noun[1]}` : cellValue(v))}</b>`;
      option = {
        tooltip: { formatter: tip, className: 'chart-tip' },
        grid: { left: 48, right: 16, top: 8, bottom: 84 },
        xAxis: { type: 'category', data: hours, splitArea: { show: true } },
        yAxis: { type: 'category', data: days, splitArea: { show: true } },
        // The scale's ends in the page's ink, whole numbers for counts.
        visualMap: {
          min: 0,
          max,
          calculable: true,
          precision: unit === 'count' ? 0 : undefined,
          orient: 'horizontal',
          left: 'center',
          bottom: 0,
          formatter: cellValue,
          textStyle: { color: INK, fontSize: 12 },
        },
        series: [{ type: 'heatmap', data, name: first ? F.seriesName(first) : '' }],
      };
    } else {
      const xs = [...new Set(chart.series.flatMap((s) => s.data.map((p) => String(p.x))))];
      const series = chart.series.map((s) => {
        const byX = new Map(s.data.map((p) => [String(p.x), p.y]));
        points += s.data.length;
        return { type: chart.type, name: F.seriesName(s), data: xs.map((x) => byX.get(x) ?? null) };
      });
      const labels = xs.map(category);
      const long = labels.some((l) => l.length > 10) && labels.length > 3;
      const perSeries = chart.series.map((s) => valueOf(s.currency));
      option = {
        tooltip: {
          trigger: 'axis',
          formatter: (params) =>
            [params[0] ? escape(params[0].axisValueLabel) : '']
              .concat(params.map((p) => `${p.marker}${escape(p.seriesName)}: <b>${escape(perSeries[p.seriesIndex](p.value))}</b>`))
              .join('<br>'),
        },
        legend: { bottom: 0, type: 'scroll' },
        grid: { left: long ? 48 : 8, right: 16, top: 16, bottom: 32, containLabel: true },
        xAxis: { type: 'category', data: labels, axisLabel: long ? { rotate: 30, width: 100, overflow: 'truncate' } : {} },
        yAxis:
          unit === 'percent'
            ? { type: 'value', min: 0, max: 100, axisLabel: { formatter: (v) => F.percent(v) } }
            : { type: 'value', axisLabel: { formatter: axisValue } },
        series,
      };
    }
    // No animation for a viewer who asks for reduced motion (and so no half-drawn screenshot).
    instance.setOption({ animation: !matchMedia('(prefers-reduced-motion: reduce)').matches, ...option });
    box.dataset.points = String(points);
    box.dataset.rendered = 'true';
  }

  /** The report's weekdays (Mon..Sun) as a tooltip names them. */
  const WEEKDAYS = { Mon: 'Monday', Tue: 'Tuesday', Wed: 'Wednesday', Thu: 'Thursday', Fri: 'Friday', Sat: 'Saturday', Sun: 'Sunday' };
  /** The page's ink (dashboard.css --ink) for chart texts that must read as text. */
  const INK = '#1f2933';
  const escape = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

  /** The last webhook deliveries over every endpoint (needs webhooks.manage), newest first. */
  async function drawDeliveries(parent) {
    const card = el('section', { class: 'card wide', id: 'deliveries', 'data-table': 'deliveries' });
    card.append(el('h3', {}, 'Last webhook deliveries'));
    parent.append(card);
    const endpoints = await call('/webhooks?per_page=100');
    if (endpoints.status !== 200) {
      card.append(el('p', { class: 'empty' }, problem(endpoints)));
      return;
    }
    const lists = await Promise.all(endpoints.body.data.slice(0, 20).map((e) => call(`/webhooks/${e.id}/deliveries?per_page=10`)));
    const urls = new Map(endpoints.body.data.map((e) => [e.id, e.url]));
    const rows = T.newestFirst(lists.flatMap((l) => (l.status === 200 ? l.body.data : [])))
      .slice(0, 10)
      .map((d) => ({ ...d, endpoint: urls.get(d.endpoint_id) }));
    const columns = [
      ['created_at', 'Created'],
      ['event', 'Event'],
      ['endpoint', 'Endpoint', true, true],
      ['status', 'Status'],
      ['attempts', 'Attempts', true],
      ['last_status_code', 'HTTP status'],
      ['last_error', 'Last error', false, true],
    ];
    card.append(T.table(rows, columns, new Map(), { flag: (d) => d.status === 'failed', code: ['event'] }));
  }

  window.addEventListener('resize', () => {
    charts.forEach((c) => c.resize());
    T.cueAll();
  });
})();
