import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/**
 * `npm run client:check`'s comparison, apart from the generation (which boots the API) so a
 * test can drive it with files of its own: the committed outputs against freshly generated
 * ones, byte for byte. CI (.ci/run) runs the check, so a change of the document that was not
 * regenerated and committed (reviewed in the diff of clients/openapi.json) fails the build.
 */
export const OUTPUTS = {
  document: 'clients/openapi.json',
  schema: 'clients/typescript/src/generated/schema.ts',
  operations: 'clients/typescript/src/generated/operations.ts',
} as const;
export type Outputs = Record<keyof typeof OUTPUTS, string>;

/** The one line a failed check starts with: what differs, and how to bring it up to date. */
export const howToRegenerate = (files: string[]) =>
  `client:check FAILED: ${files.join(', ')} differ from what the API generates: run \`npm run openapi:generate\` and commit the result.`;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
type Document = { paths: Record<string, Record<string, { operationId?: string }>>; components?: Record<string, Record<string, unknown>> };

export function writeOutputs(outputs: Outputs, root: string): void {
  for (const key of Object.keys(OUTPUTS) as (keyof Outputs)[]) {
    const file = join(root, OUTPUTS[key]);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, outputs[key]);
  }
}

const read = (file: string): string | null => (existsSync(file) ? readFileSync(file, 'utf8') : null);

/** METHOD path -> operationId and a fingerprint of the operation, to say which operations changed. */
function operationIndex(json: string | null): Map<string, string> {
  const out = new Map<string, string>();
  if (!json) return out;
  const document = JSON.parse(json) as Document;
  for (const [path, item] of Object.entries(document.paths))
    for (const method of METHODS) if (item[method]) out.set(`${method.toUpperCase()} ${path} (${item[method].operationId})`, JSON.stringify(item[method]));
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) out.set(`schema ${name}`, JSON.stringify(schema));
  return out;
}

/** `+`, `-` and `~` lines: the operations and schemas added, removed and changed. */
export function documentSummary(committed: string | null, fresh: string): string[] {
  const before = operationIndex(committed);
  const after = operationIndex(fresh);
  const lines: string[] = [];
  for (const key of after.keys()) if (!before.has(key)) lines.push(`  + ${key}`);
  for (const key of before.keys()) if (!after.has(key)) lines.push(`  - ${key}`);
  for (const [key, value] of after) if (before.has(key) && before.get(key) !== value) lines.push(`  ~ ${key}`);
  return lines.length ? lines : ['  (only the document header or formatting differs)'];
}

function fileDiff(committedFile: string, freshFile: string, maxLines = 60): string[] {
  try {
    execFileSync('git', ['diff', '--no-index', '--no-color', '--stat', '--', committedFile, freshFile], { encoding: 'utf8' });
    return [];
  } catch (e) {
    const stat = String((e as { stdout?: string }).stdout ?? '').trim();
    let patch = '';
    try {
      execFileSync('git', ['diff', '--no-index', '--no-color', '-U1', '--', committedFile, freshFile], { encoding: 'utf8' });
    } catch (d) {
      patch = String((d as { stdout?: string }).stdout ?? '');
    }
    const body = patch.split('\n');
    return [stat, ...body.slice(0, maxLines), ...(body.length > maxLines ? [`  ... ${body.length - maxLines} more diff lines`] : [])];
  }
}

/** Compares the files committed under `root` with `fresh`: ok, or the report to print (its first line says how to regenerate). */
export function compareOutputs(fresh: Outputs, root: string): { ok: true; message: string } | { ok: false; stale: (keyof Outputs)[]; report: string } {
  const stale = (Object.keys(OUTPUTS) as (keyof Outputs)[]).filter((key) => read(join(root, OUTPUTS[key])) !== fresh[key]);
  if (stale.length === 0) return { ok: true, message: `client:check: ${Object.values(OUTPUTS).join(', ')} are current.` };
  const temp = mkdtempSync(join(tmpdir(), 'pos-client-check-'));
  try {
    writeOutputs(fresh, temp);
    const report = [howToRegenerate(stale.map((k) => OUTPUTS[k]))];
    if (stale.includes('document')) report.push('', `${OUTPUTS.document}:`, ...documentSummary(read(join(root, OUTPUTS.document)), fresh.document));
    for (const key of stale.filter((k) => k !== 'document')) {
      const committed = join(root, OUTPUTS[key]);
      report.push(
        '',
        `${OUTPUTS[key]}:`,
        ...(existsSync(committed) ? fileDiff(relative(process.cwd(), committed), join(temp, OUTPUTS[key])) : ['  (missing)']),
      );
    }
    return { ok: false, stale, report: report.join('\n') };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
