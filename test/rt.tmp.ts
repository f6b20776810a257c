import request from 'supertest';
import { writeFileSync } from 'node:fs';
import { startTestApp } from './support/test-app';
(async () => {
  const t = await startTestApp();
  const res = await request(t.http).get('/api/docs-json');
  writeFileSync('/tmp/openapi.json', JSON.stringify(res.body, null, 1));
  await t.close();
})();
