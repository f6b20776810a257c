import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';

/** The project root (the folder with package.json), from src under ts-node/jest or dist in the image. */
function projectRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`No package.json above ${from}`);
    dir = up;
  }
  return dir;
}

/**
 * GET /dashboard: the back-office page (apps/api/dashboard, static files: no server of its own)
 * and the chart library from its npm package (/dashboard/vendor/echarts.min.js), never a CDN.
 * The page talks to /api/v1 with the signed-in user's bearer token like any other client.
 */
export function useDashboard(app: NestExpressApplication): void {
  const echartsFile = require.resolve('echarts/dist/echarts.min');
  app.useStaticAssets(dirname(echartsFile), { prefix: '/dashboard/vendor/', index: false, redirect: false });
  app.useStaticAssets(join(projectRoot(__dirname), 'apps/api/dashboard'), { prefix: '/dashboard/', index: 'index.html', redirect: true });
}
