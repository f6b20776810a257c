import { mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareOutputs, OUTPUTS, Outputs, writeOutputs } from '../../clients/tools/openapi-check';

/**
 * `npm run client:check` (run by CI) fails when the OpenAPI document or the client generated
 * from it changed without being regenerated and committed: the comparison, driven with the
 * committed files and altered copies of them (no API boots here).
 */
describe('client:check: the committed document against the generated one', () => {
  const repo = join(__dirname, '..', '..');
  const committed: Outputs = {
    document: readFileSync(join(repo, OUTPUTS.document), 'utf8'),
    schema: readFileSync(join(repo, OUTPUTS.schema), 'utf8'),
    operations: readFileSync(join(repo, OUTPUTS.operations), 'utf8'),
  };
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'openapi-check-spec-'));
    writeOutputs(committed, root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const changedDocument = (change: (d: { paths: Record<string, unknown>; components: { schemas: Record<string, any> } }) => void) => {
    const document = JSON.parse(committed.document);
    change(document);
    return { ...committed, document: JSON.stringify(document, null, 2) + '\n' };
  };

  it('runs in CI, whose run stops on its failure', () => {
    const ci = readFileSync(join(repo, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/^set -euo pipefail$/m);
    expect(ci).toMatch(/^npm run client:check$/m);
  });

  it('passes when the committed files are what the API generates', () => {
    expect(compareOutputs(committed, root)).toEqual({ ok: true, message: expect.stringContaining('are current') });
  });

  it('fails on a schema changed unreviewed, first saying in one line how to regenerate, then which schema', () => {
    const result = compareOutputs(
      changedDocument((d) => (d.components.schemas.ErrorEnvelope.properties.hint = { type: 'string' })),
      root,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.stale).toEqual(['document']);
    const [first, ...rest] = result.report.split('\n');
    expect(first).toBe('client:check FAILED: clients/openapi.json differ from what the API generates: run `npm run openapi:generate` and commit the result.');
    expect(rest).toContain('  ~ schema ErrorEnvelope');
  });

  it('names an operation added or removed', () => {
    const added = compareOutputs(
      changedDocument((d) => (d.paths['/api/v1/new-thing'] = { get: { operationId: 'getNewThing', responses: {} } })),
      root,
    );
    expect(added.ok || added.report).toContain('  + GET /api/v1/new-thing (getNewThing)');
    const removed = compareOutputs(
      changedDocument((d) => delete d.paths['/api/v1/sync/status']),
      root,
    );
    expect(removed.ok || removed.report).toMatch(/ {2}- GET \/api\/v1\/sync\/status \(\w+\)/);
  });

  it('fails on a formatting-only difference and on a generated client file changed or missing', () => {
    const spaced = compareOutputs({ ...committed, document: committed.document + '\n' }, root);
    expect(spaced.ok || spaced.report).toContain('(only the document header or formatting differs)');

    const edited = compareOutputs({ ...committed, operations: committed.operations.replace('export const OPERATIONS', 'export const OPS') }, root);
    expect(edited.ok).toBe(false);
    expect(edited.ok || edited.report).toContain('export const OPS');

    unlinkSync(join(root, OUTPUTS.schema));
    const missing = compareOutputs(committed, root);
    expect(missing.ok || missing.stale).toEqual(['schema']);
    expect(missing.ok || missing.report).toContain('(missing)');
  });
});
