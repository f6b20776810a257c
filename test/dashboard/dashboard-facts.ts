/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { Page } from 'playwright-core';

/** A drawn chart as a person sees it: its card's title and every text of its svg (axis labels, legend). */
export interface ChartFacts {
  report: string | null;
  type: string | null;
  title: string;
  rendered: string | null;
  points: number;
  marks: number;
  texts: string[];
}

/** A table's visible headings and cells (columns hidden by the layout left out). */
export interface TableFacts {
  name: string;
  heads: string[];
  rows: string[][];
}

/** What the signed-in board shows: charts, headline figures and tables, read from the page. */
export async function boardFacts(page: Page): Promise<{ charts: ChartFacts[]; kpis: string[]; kpiKeys: string[]; tables: TableFacts[] }> {
  return page.evaluate(() => {
    const shown = (e: Element) => getComputedStyle(e).display !== 'none';
    const text = (e: Element) => (e.textContent ?? '').trim();
    const charts = [...document.querySelectorAll('.chart')].map((b) => ({
      report: b.getAttribute('data-report'),
      type: b.getAttribute('data-chart-type'),
      title: text(b.closest('section')?.querySelector('h3') ?? b),
      rendered: b.getAttribute('data-rendered'),
      points: Number(b.getAttribute('data-points')),
      marks: b.querySelectorAll('svg path, svg rect').length,
      texts: [...b.querySelectorAll('svg text')].map(text).filter(Boolean),
    }));
    const kpis = [...document.querySelectorAll('.kpi b')].map(text);
    const kpiKeys = [...document.querySelectorAll('.kpi')].map((k) => k.getAttribute('data-key') ?? '');
    const tables = [...document.querySelectorAll('[data-table]')].map((card) => ({
      name: card.getAttribute('data-table') ?? '',
      heads: [...card.querySelectorAll('th')].filter(shown).map(text),
      // innerText: what shows (a phone's second line in a cell is hidden on wider screens).
      rows: [...card.querySelectorAll('tr')]
        .slice(1)
        .map((tr) => [...tr.querySelectorAll('td')].filter(shown).map((td) => (td as HTMLElement).innerText.trim())),
    }));
    return { charts, kpis, kpiKeys, tables };
  });
}

/** The page's width against the viewport, elements past its right edge, and whether each table fits its card. */
export async function layoutFacts(page: Page): Promise<{
  scrollWidth: number;
  overflowing: string[];
  tables: { name: string; width: number; room: number; fits: boolean; scrollable: boolean; cue: boolean }[];
}> {
  return page.evaluate(() => {
    const right = innerWidth + 0.5;
    // A table scrolling inside its wrapper is clipped by it: only the wrapper can overflow the page.
    const overflowing = [...document.querySelectorAll('body *')]
      .filter((e) => !e.parentElement?.closest('.table-wrap') && e.getBoundingClientRect().right > right)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? `.${e.className}` : ''} right ${Math.round(e.getBoundingClientRect().right)}`,
      )
      .slice(0, 10);
    const tables = [...document.querySelectorAll('.table-wrap')].map((wrap) => {
      const table = wrap.querySelector('table') as HTMLElement;
      const width = table.getBoundingClientRect().width;
      return {
        name: wrap.closest('[data-table]')?.getAttribute('data-table') ?? '',
        width: Math.round(width),
        room: wrap.clientWidth,
        fits: width <= wrap.clientWidth + 0.5 && wrap.getBoundingClientRect().right <= right,
        scrollable: ['auto', 'scroll'].includes(getComputedStyle(wrap).overflowX),
        cue: wrap.classList.contains('more-right'),
      };
    });
    return { scrollWidth: document.documentElement.scrollWidth, overflowing, tables };
  });
}

/**
 * The heatmap as a person reads it: the tooltip of the cell of `weekday` (Mon..Sun) and `hour`
 * (shown as a pointer on it would show it), and the visual scale's end labels left to right with
 * their ink (the svg texts below the hour axis, read before the tooltip adds its marker).
 */
export async function heatmapTip(page: Page, weekday: string, hour: number): Promise<{ text: string; scale: string[]; scaleInk: string[] }> {
  const scale = await page.evaluate(() => {
    const box = document.querySelector('.chart[data-chart-type="heatmap"]') as HTMLElement;
    const texts = [...box.querySelectorAll('svg text')].filter((e) => (e.textContent ?? '').trim());
    const axis = Math.max(...texts.filter((e) => e.textContent?.trim() === '23').map((e) => e.getBoundingClientRect().bottom));
    return texts
      .filter((e) => e.getBoundingClientRect().top > axis)
      .sort((a, b) => a.getBoundingClientRect().left - b.getBoundingClientRect().left)
      .map((e) => ({ text: (e.textContent ?? '').trim(), ink: e.getAttribute('fill') ?? getComputedStyle(e).fill }));
  });
  await page.evaluate(
    ([day, h]) => {
      const box = document.querySelector('.chart[data-chart-type="heatmap"]') as HTMLElement;
      const chart = (window as unknown as { echarts: { getInstanceByDom(e: HTMLElement): any } }).echarts.getInstanceByDom(box);
      const option = chart.getOption();
      const row = (option.yAxis[0].data as string[]).indexOf(day as string);
      const index = (option.series[0].data as number[][]).findIndex((d) => d[0] === h && d[1] === row);
      chart.dispatchAction({ type: 'showTip', seriesIndex: 0, dataIndex: index });
    },
    [weekday, hour] as const,
  );
  // ECharts puts its tooltip after the drawing's own div in the chart's box.
  const tip = await page.waitForSelector('.chart[data-chart-type="heatmap"] > div + div', { state: 'visible', timeout: 10_000 });
  const text = (await tip.innerText()).replace(/\s*\n\s*/g, ' ').trim();
  return { text, scale: scale.map((s) => s.text), scaleInk: scale.map((s) => s.ink) };
}

/** Which of a table's headings are shown and lie wholly inside its card's visible box (not off to the side). */
export async function keyColumnsShown(page: Page, table: string): Promise<string[]> {
  return page.evaluate((name) => {
    const card = document.querySelector(`[data-table="${name}"]`) as HTMLElement;
    const wrap = card.querySelector('.table-wrap') as HTMLElement;
    const box = wrap.getBoundingClientRect();
    return [...card.querySelectorAll('th')]
      .filter((th) => getComputedStyle(th).display !== 'none')
      .filter((th) => th.getBoundingClientRect().right <= box.right + 0.5 && th.getBoundingClientRect().left >= box.left - 0.5)
      .map((th) => (th.textContent ?? '').trim());
  }, table);
}
