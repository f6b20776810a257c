import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * One OpenAPI dialect for responses: named views (`defineView` with the `s` builders) in
 * `<ctx>.responses.ts`, put on routes with `ApiEnvelope` / `ApiMessage` / `ApiErrors`
 * (http/openapi.ts). Three dialects lived side by side before (views, `*Doc` classes in
 * sync.dto.ts, schema constants in returns.openapi.ts), each documenting the same envelope its
 * own way. This spec scans apps/api/src and fails on a new instance of another one; the few
 * files below are shared decorators, or known cases still to convert (listed, so the list
 * can only shrink: an entry that no longer applies fails too, and is removed).
 */
type Rule = 'response-decorator' | 'class-model' | 'openapi-file' | 'view-outside-responses';

const RULES: Record<Rule, { test: (file: string, text: string) => boolean; fix: string }> = {
  // @ApiOkResponse({ type: X }), @ApiResponse({ schema }), @ApiNotFoundResponse(...): each route its own way
  'response-decorator': {
    test: (_file, text) => /\bApi(?:[A-Z]\w*)?Response\s*\(/.test(text),
    fix: 'document the answer with ApiEnvelope(View) and its errors with ApiErrors([status, why]) from http/openapi.ts',
  },
  // classes as response models: `class SyncPageDoc { @ApiProperty() ... }`, ApiExtraModels / getSchemaPath
  'class-model': {
    test: (_file, text) => /\bclass\s+\w+(?:Doc|Envelope)\b/.test(text) || /\b(?:ApiExtraModels|getSchemaPath)\s*\(/.test(text),
    fix: 'describe response data with defineView in <ctx>.responses.ts (request bodies stay DTO classes)',
  },
  'openapi-file': {
    test: (file) => file.endsWith('.openapi.ts'),
    fix: 'response shapes go in <ctx>.responses.ts as views',
  },
  'view-outside-responses': {
    test: (file, text) => !file.endsWith('.responses.ts') && /\bdefineView\s*\(/.test(text),
    fix: 'move the view to <ctx>.responses.ts',
  },
};

/** File (under apps/api/src) -> the rules it may break, and why. */
const EXCEPTIONS: Record<string, { rules: Rule[]; why: string }> = {
  'http/openapi.ts': { rules: ['response-decorator', 'view-outside-responses'], why: 'the dialect itself (ApiEnvelope, ErrorEnvelope, PaginationMeta)' },
  'http/job-location.ts': { rules: ['response-decorator'], why: 'shared decorator: 202 with the job Location' },
  'access/policy.decorators.ts': { rules: ['response-decorator'], why: 'shared decorators: 401/403/429 from the route policy' },
  'http/conditional.openapi.ts': { rules: ['openapi-file'], why: 'shared: If-Match/ETag headers added to the whole document' },
  'http/idempotency.openapi.ts': { rules: ['openapi-file'], why: 'shared: Idempotency-Key added to the whole document' },
  'integration/change-mode.ts': { rules: ['response-decorator', 'view-outside-responses'], why: 'shared decorator ApiFeedEnvelope (feeds in change mode)' },
  // Known, to convert (their controllers belong to other work in progress):
  'integration/reports.openapi.ts': { rules: ['response-decorator', 'openapi-file'], why: 'to convert: report schemas as constants' },
  'integration/reports.controller.ts': { rules: ['response-decorator'], why: 'to convert: ApiNotFoundResponse per report' },
  'integration/events.controller.ts': { rules: ['response-decorator', 'view-outside-responses'], why: 'to convert: views and response in the controller' },
  'webhooks/webhooks.openapi.ts': { rules: ['class-model', 'openapi-file'], why: 'to convert: webhook data documented as classes (webhooks.dto.ts)' },
  'webhooks/webhook-events.openapi.ts': {
    rules: ['openapi-file', 'view-outside-responses'],
    why: 'to convert: event payload views, to webhook-events.responses.ts',
  },
};

/** The rules a file breaks. */
function dialectViolations(file: string, text: string): Rule[] {
  return (Object.keys(RULES) as Rule[]).filter((rule) => RULES[rule].test(file, text));
}

const ROOT = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [relative(ROOT, path).split('\\').join('/')] : [];
  });
}

describe('OpenAPI: one dialect for responses', () => {
  const files = sources(ROOT);
  const found = new Map(files.map((f) => [f, dialectViolations(f, readFileSync(join(ROOT, f), 'utf8'))]));

  it('scans the API sources (and finds the views in *.responses.ts)', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.filter((f) => f.endsWith('.responses.ts')).length).toBeGreaterThanOrEqual(8);
  });

  it('has no response documentation in another dialect outside the listed files', () => {
    const problems: string[] = [];
    for (const [file, rules] of found)
      for (const rule of rules) if (!EXCEPTIONS[file]?.rules.includes(rule)) problems.push(`${file}: ${rule}: ${RULES[rule].fix}`);
    expect(problems).toEqual([]);
  });

  it('lists no exception that no longer applies (remove it)', () => {
    const stale = Object.entries(EXCEPTIONS).flatMap(([file, { rules }]) =>
      rules.filter((rule) => !found.get(file)?.includes(rule)).map((rule) => `${file}: ${rule}`),
    );
    expect(stale).toEqual([]);
  });

  it('recognises each other dialect', () => {
    expect(dialectViolations('sync/sync.dto.ts', 'class SyncPageDoc {\n  @ApiProperty() store_id!: number;\n}')).toEqual(['class-model']);
    expect(dialectViolations('sync/sync.controller.ts', "@ApiOkResponse({ type: SyncPageEnvelope, description: 'One page' })")).toEqual(['response-decorator']);
    expect(dialectViolations('x/x.controller.ts', '@ApiResponse({ status: 200, schema: X })')).toEqual(['response-decorator']);
    expect(dialectViolations('x/x.controller.ts', 'ApiEnvelope({ $ref: getSchemaPath(model) })')).toEqual(['class-model']);
    expect(dialectViolations('returns/returns.openapi.ts', 'export const RETURN_DETAIL = s.object({})')).toEqual(['openapi-file']);
    expect(dialectViolations('x/x.controller.ts', "const V = defineView('V', {})")).toEqual(['view-outside-responses']);
    expect(dialectViolations('x/x.responses.ts', "export const V = defineView('V', { id: s.int() })")).toEqual([]);
    expect(dialectViolations('x/x.controller.ts', "@ApiEnvelope(V)\n@ApiErrors([404, 'Unknown'])")).toEqual([]);
  });
});
