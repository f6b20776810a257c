import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { REPORTS } from './registry';
import { withReportsTable } from './reports-table';

const GUIDE = join(__dirname, '../../../../docs/partner.md');

describe('the report registry', () => {
  it('docs/partner.md lists every report as the registry defines it (UPDATE_REPORTS_TABLE=1 rewrites it)', () => {
    const doc = readFileSync(GUIDE, 'utf8');
    const generated = withReportsTable(doc, REPORTS);
    if (process.env.UPDATE_REPORTS_TABLE === '1' && generated !== doc) writeFileSync(GUIDE, generated);
    else expect(doc).toBe(generated);
  });

  it('has one definition per route and operation, and every report declares its rows', () => {
    expect(REPORTS).toHaveLength(32);
    expect(new Set(REPORTS.map((r) => r.route)).size).toBe(REPORTS.length);
    expect(new Set(REPORTS.map((r) => r.operation)).size).toBe(REPORTS.length);
    for (const r of REPORTS) {
      expect({ route: r.route, columns: r.columns.length > 0 }).toEqual({ route: r.route, columns: true });
      expect(new Set(r.columns).size).toBe(r.columns.length);
    }
  });
});
