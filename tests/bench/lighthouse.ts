/** Lighthouse 13 (its CLI, JSON output), mobile with simulated throttling, on Debian's Chromium. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface LighthouseFigures {
  performance: number;
  lcp: number;
  fcp: number;
  cls: number;
  /** Total Blocking Time: what the main thread's tasks held beyond 50 ms each, simulated on a slow phone */
  tbt: number;
}

const CLI = join(import.meta.dirname, '..', 'node_modules', '.bin', 'lighthouse');
const CHROME_FLAGS =
  '--headless=new --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run';

/** One Lighthouse run on `url` with `args` (categories, form factor, headers): its JSON report. */
export async function lighthouseReport<Report>(url: string, args: string[]): Promise<Report> {
  const dir = mkdtempSync(join(tmpdir(), 'aitools-lighthouse-'));
  const out = join(dir, 'report.json');
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        CLI,
        [url, '--quiet', '--output=json', `--output-path=${out}`, `--chrome-flags=${CHROME_FLAGS}`, ...args],
        {
          env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let err = '';
      child.stderr.on('data', (d) => (err += d));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0
          ? resolve()
          : reject(new Error(`lighthouse exited with ${code}: ${err.trim().split('\n').slice(-3).join(' ')}`)),
      );
    });
    return JSON.parse(readFileSync(out, 'utf8')) as Report;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function lighthouse(url: string): Promise<LighthouseFigures> {
  const report = await lighthouseReport<{
    categories: { performance: { score: number | null } };
    audits: Record<string, { numericValue?: number }>;
    runtimeError?: { message: string };
  }>(url, ['--only-categories=performance', '--form-factor=mobile', '--throttling-method=simulate']);
  if (report.runtimeError || report.categories.performance.score === null)
    throw new Error(`lighthouse: ${report.runtimeError?.message ?? 'no performance score'}`);
  const audit = (id: string) => report.audits[id]?.numericValue ?? NaN;
  return {
    performance: report.categories.performance.score,
    lcp: audit('largest-contentful-paint'),
    fcp: audit('first-contentful-paint'),
    cls: audit('cumulative-layout-shift'),
    tbt: audit('total-blocking-time'),
  };
}
