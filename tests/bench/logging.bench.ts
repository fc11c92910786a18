/**
 * What request logging costs: req/s and p99 of a cached JSON read (GET /api/tools) and of an immutable static file
 * (/assets/...), served by the API's own middleware stack (compression, helmet, the cached tools router) without a
 * request logger, with pino-http as first configured (a line for every request), and with the server's
 * requestLogger. Logs go to a file, as a production server's stdout would. Prints figures; never pass/fail.
 *
 *   cd tests && pnpm exec tsx bench/logging.bench.ts
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { API_DIR, freePort } from '../e2e/harness';

const MODES = ['none', 'pino-http', 'requestLogger'] as const;
type Mode = (typeof MODES)[number];
const PATHS = ['/api/tools', '/assets/app.js'];

async function serve(mode: Mode, port: number, dir: string) {
  // The API's own modules and dependencies, loaded at run time: this package does not depend on them (and their
  // Express types are the API's, not this package's).
  const apiRequire = createRequire(join(API_DIR, 'package.json'));
  const api = (module: string) => import(pathToFileURL(join(API_DIR, 'src', `${module}.ts`)).href);
  const express = apiRequire('express');
  const compression = apiRequire('compression');
  const { pino } = apiRequire('pino');
  const { pinoHttp } = apiRequire('pino-http');
  const { openDatabase } = await api('db/connection');
  const { seed } = await api('seed');
  const { dataVersion } = await api('content/dataVersion');
  const { createReplyCache, isPrecompressed } = await api('http/cachedResponse');
  const { toolsRouter } = await api('tools/router');
  const { securityHeaders } = await api('middleware/security');
  const { requestLogger } = await api('middleware/logger');

  const db = await openDatabase(':memory:');
  await seed(db);
  const logger = pino({ level: 'info' }, pino.destination({ dest: join(dir, `${mode}.log`), sync: true }));
  const app = express();
  if (mode === 'pino-http') {
    type Line = { method?: string; url?: string; statusCode?: number };
    app.use(
      pinoHttp({
        logger,
        serializers: {
          req: (req: Line) => ({ method: req.method, url: req.url }),
          res: (res: Line) => ({ statusCode: res.statusCode }),
        },
      }),
    );
  }
  if (mode === 'requestLogger') app.use(requestLogger(logger));
  app.use(
    compression({ filter: (req: unknown, res: unknown) => !isPrecompressed(res) && compression.filter(req, res) }),
  );
  app.use(securityHeaders({ connectSrc: [] }));
  app.use(
    '/api/tools',
    toolsRouter(db, createReplyCache({ version: () => dataVersion(db), maxBytes: 32 * 1024 * 1024 })),
  );
  app.use('/assets', express.static(join(dir, 'assets'), { immutable: true, maxAge: '365d' }));
  app.listen(port, '127.0.0.1', () => process.send?.('ready'));
}

async function measure(mode: Mode, dir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, 'serve', mode, String(port), dir], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`server (${mode}) exited with ${code}`)));
  });
  try {
    for (const path of PATHS) {
      const r = await autocannon({
        url: `http://127.0.0.1:${port}${path}`,
        connections: 10,
        duration: 8,
        headers: { 'accept-encoding': 'gzip' },
      });
      console.log(
        `${mode.padEnd(14)} ${path.padEnd(16)} ${String(Math.round(r.requests.average)).padStart(6)} req/s   p99 ${r.latency.p99} ms   ${r.non2xx ? `non-2xx ${r.non2xx}` : ''}`,
      );
    }
  } finally {
    child.kill();
  }
}

if (process.argv[2] === 'serve') {
  await serve(process.argv[3] as Mode, Number(process.argv[4]), process.argv[5]!);
} else {
  const dir = mkdtempSync(join(tmpdir(), 'logging-bench-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'assets', 'app.js'), 'export const x = 1;\n'.repeat(2000));
  console.log('request logging: 10 connections, 8 s per row, Accept-Encoding: gzip');
  try {
    for (const mode of MODES) await measure(mode, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
