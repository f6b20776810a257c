import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { REPORTS } from '@pos/integration';

interface Panel {
  report: string;
  perm: string;
  rows?: [string, string, (boolean | string)?, boolean?][];
  under?: Record<string, string>;
}

/** The dashboard's panels.js (browser JavaScript, data only) run in a sandbox. */
function load(): { PANELS: Panel[]; KPIS: string[] } {
  const sandbox: Record<string, unknown> = {};
  sandbox.window = sandbox;
  createContext(sandbox);
  runInContext(readFileSync(join(__dirname, 'panels.js'), 'utf8'), sandbox);
  return sandbox.PosPanels as { PANELS: Panel[]; KPIS: string[] };
}

/**
 * Issue 31 item 3: the board asked the overview for `margin`, `sales` and `units`, keys the API
 * never sends, so three headline cards never showed. Every key the dashboard names must be one the
 * report it reads declares (its summary figures or its row columns), with the report's permission.
 */
describe('dashboard panels (panels.js) against the report definitions', () => {
  const { PANELS, KPIS } = load();
  const report = (route: string) => REPORTS.find((r) => r.route === route);

  it('asks the overview only for headline figures it sends', () => {
    const overview = report('overview');
    expect(KPIS).toHaveLength(8);
    expect(KPIS.filter((k) => !(overview?.summary as readonly string[]).includes(k))).toEqual([]);
  });

  it.each(PANELS.map((p) => [p.report, p] as const))('%s: a report with that permission, and columns it sends', (route, panel) => {
    const r = report(route);
    expect(r).toMatchObject({ permission: panel.perm });
    const columns = r?.columns as readonly string[];
    const named = [...(panel.rows ?? []).map(([key]) => key), ...Object.entries(panel.under ?? {}).flat()];
    expect(named.filter((k) => !columns.includes(k))).toEqual([]);
  });
});
