import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Controllers only route: a *.controller.ts file holds controllers, and nothing but the
 * composition root imports one. Helpers that several controllers share (date ranges, mappers,
 * DTOs, views) live in http/ or in <ctx>.mapper.ts / .dto.ts / .responses.ts, where their
 * importers do not pull a controller (and its routes) in with them.
 */
const SRC = join(__dirname, '..');
const ROOT = 'app.module.ts';

/** Files allowed to break the rule (none: keep it that way). */
const KNOWN = new Set<string>();

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [relative(SRC, path)] : [];
  });
}

/** What a controller file exports besides controllers (classes, or consts built per audience). */
function strayExports(text: string): string[] {
  return [...text.matchAll(/^export\s+(?:async\s+)?(?:abstract\s+)?(class|function|const|let|interface|type|enum)\s+(\w+)/gm)]
    .filter(([, kind, name]) => !((kind === 'class' || kind === 'const') && name.endsWith('Controller')))
    .map(([, , name]) => name);
}

/** The controller files a source imports (relative imports naming a *.controller module). */
function controllerImports(text: string): string[] {
  return [...text.matchAll(/from\s+'(\.[^']*\.controller)'/g)].map(([, path]) => path);
}

describe('controllers only route', () => {
  const files = sources(SRC);

  it('a controller file exports controllers only', () => {
    const stray = files
      .filter((f) => f.endsWith('.controller.ts') && !KNOWN.has(f))
      .flatMap((f) => strayExports(readFileSync(join(SRC, f), 'utf8')).map((name) => `${f}: ${name}`));
    expect(stray).toEqual([]);
  });

  it('only the composition root imports a controller', () => {
    const importers = files
      .filter((f) => f !== ROOT && !KNOWN.has(f))
      .flatMap((f) => controllerImports(readFileSync(join(SRC, f), 'utf8')).map((path) => `${f} imports ${path}`));
    expect(importers).toEqual([]);
  });

  it('the checks see what they forbid', () => {
    expect(strayExports('export function dayStart() {}\nexport class ItemsController {}\nexport const LIMIT = 1;')).toEqual(['dayStart', 'LIMIT']);
    expect(controllerImports("import { dayEnd } from '../catalog/inventory.controller';\nimport { x } from './x.mapper';")).toEqual([
      '../catalog/inventory.controller',
    ]);
    expect(files).toEqual(expect.arrayContaining([ROOT, 'pricing/pricing.controller.ts', 'http/date-range.ts']));
  });
});
