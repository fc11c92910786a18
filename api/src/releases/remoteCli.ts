/**
 * The release commands against a running site, from a team's checkout or CI (the release API, router.ts), with the
 * token in RELEASE_TOKEN:
 *   pnpm release <remote> --site <url> [--no-activate]   build here, upload, activate (or print the preview link)
 *   pnpm release <remote> --site <url> --canary <percent>   the same, as a canary for that share of visitors
 *   pnpm promote <remote> --site <url>  |  pnpm abort <remote> --site <url>
 *   pnpm rollback <remote> --site <url> [--to <id>] [--force]
 *   pnpm releases [<remote>] --site <url>
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'tar';
import { REMOTE_NAMES } from '../paths';
import { buildRelease } from './build';
import { ReleaseError } from './refusal';
import type { WatchReport } from './autoRollback';
import { AUTOMATIC_ACTOR } from './manifest';

export interface RemoteCommand {
  command: 'release' | 'rollback' | 'list' | 'promote' | 'abort';
  remote?: string;
  site: string;
  token: string | undefined;
  activate: boolean;
  to?: string;
  packageDir?: string;
  /** release: start it as a canary for this share of visitors. */
  canary?: number;
  /** rollback --to: a release the server rolled back on its own. */
  force?: boolean;
}

/** --canary's value: a whole percent from 1 to 99 (undefined without the option). */
export function canaryPercent(value: string | undefined, given: boolean): number | undefined {
  if (!given) return undefined;
  const n = Number(value);
  if (!value || !Number.isInteger(n) || n < 1 || n > 99)
    throw new ReleaseError(
      `--canary takes the share of visitors in percent, a whole number from 1 to 99 (got "${value ?? ''}").`,
    );
  return n;
}

const rate = (c: { views: number; errors: number }) =>
  `${c.views ? ((c.errors / c.views) * 100).toFixed(1) : '0.0'}% (${c.errors} errors / ${c.views} views)`;

const refusals = (r: Record<string, number>) =>
  Object.entries(r)
    .map(([reason, n]) => `${reason} ${n}`)
    .join(', ') || 'none';

/** What the automatic rollback watches for a remote: the error rates, the distinct sources behind the new release's
 *  reports and the reports refused, and the latest judgement when the server made one. */
export function formatWatch(
  w: Pick<WatchReport, 'kind' | 'fresh' | 'stable' | 'sinceMs' | 'freshCounts' | 'stableCounts'> & {
    lastCheck?: { at: string; rollBack: boolean; reason: string };
  },
): string {
  const fresh = w.kind === 'canary' ? 'canary' : 'new release';
  return [
    `  watching ${fresh} ${w.fresh} since ${new Date(w.sinceMs).toISOString()}: error rate ${rate(w.freshCounts)}; stable ${w.stable}: ${rate(w.stableCounts)}`,
    `    reported by ${w.freshCounts.sources.visitors} distinct visitors from ${w.freshCounts.sources.networks} networks; reports refused: ${refusals(w.freshCounts.refused)} (stable: ${w.stableCounts.sources.visitors} visitors, ${w.stableCounts.sources.networks} networks; refused: ${refusals(w.stableCounts.refused)})`,
    ...(w.lastCheck
      ? [`    last check ${w.lastCheck.at}: ${w.lastCheck.rollBack ? 'roll back' : 'kept'}, ${w.lastCheck.reason}`]
      : []),
  ].join('\n');
}

type Answer = { status: number; body: Record<string, unknown> };

/** What to do about a refusal, beside the server's own reason. */
function hint(status: number, remote: string | undefined): string {
  if (status === 401)
    return 'Set RELEASE_TOKEN to a live release token (an operator makes one with `pnpm run token create <remote> --label <ci-name>`).';
  if (status === 403) return `Use a token that covers ${remote ?? 'this remote'}, or ask an operator for one.`;
  if (status === 404) return `Check the remote (${REMOTE_NAMES.join(', ')}) and --site.`;
  if (status === 409) return 'Build again: a new build gets a new release id.';
  if (status === 413) return 'Release only the build output; an operator can raise RELEASE_UPLOAD_BYTES.';
  if (status === 429) return 'Too many uploads with this token: wait a minute and try again.';
  if (status >= 500) return 'The site failed; try again, and tell its operators if it persists.';
  return '';
}

/** Sends a request; an upload's progress is reported as it goes out. */
function call(
  site: string,
  method: string,
  path: string,
  token: string,
  body?: { data: Buffer; type: string },
  progress?: (sent: number, total: number) => void,
): Promise<Answer> {
  const url = new URL(path, site);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: 'application/json',
          ...(body ? { 'Content-Type': body.type, 'Content-Length': body.data.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: Record<string, unknown>;
          try {
            parsed = JSON.parse(text) as Record<string, unknown>;
          } catch {
            parsed = {
              success: false,
              error: `the site answered ${res.statusCode} with no JSON (is ${site} the site?)`,
            };
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', (err) => reject(new ReleaseError(`Cannot reach ${site}: ${err.message}. Check --site.`)));
    if (!body) return void req.end();
    const CHUNK = 64 * 1024;
    let sent = 0;
    const write = (): void => {
      while (sent < body.data.length) {
        const part = body.data.subarray(sent, sent + CHUNK);
        sent += part.length;
        progress?.(sent, body.data.length);
        if (!req.write(part)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

function expectOk(answer: Answer, what: string, remote?: string): Record<string, unknown> {
  if (answer.status >= 200 && answer.status < 300 && answer.body.success !== false) return answer.body;
  const reason = typeof answer.body.error === 'string' ? answer.body.error : `status ${answer.status}`;
  throw new ReleaseError(
    `${what} refused (${answer.status}): ${reason}${hint(answer.status, remote) ? `\n  ${hint(answer.status, remote)}` : ''}`,
  );
}

const kB = (n: number) => `${(n / 1024).toFixed(0)} kB`;

export async function runRemoteCommand(
  cmd: RemoteCommand,
  log: (line: string) => void = (l) => console.log(l),
): Promise<void> {
  if (!cmd.token)
    throw new ReleaseError(
      'Set RELEASE_TOKEN to the release token for this remote (an operator makes one with `pnpm run token create <remote> --label <ci-name>`).',
    );
  const token = cmd.token;
  const site = cmd.site.endsWith('/') ? cmd.site : `${cmd.site}/`;
  if (!/^https?:\/\//.test(site))
    throw new ReleaseError(`--site takes the site's address, e.g. https://aitools.example (got "${cmd.site}").`);

  if (cmd.command === 'release') {
    const remote = cmd.remote!;
    const out = mkdtempSync(join(tmpdir(), `release-${remote}-`));
    try {
      const draft = buildRelease(remote, out, { packageDir: cmd.packageDir, log });
      const chunks: Buffer[] = [];
      let files = 0;
      const packer = create({ gzip: true, cwd: out, portable: true, onWriteEntry: () => void files++ }, [
        'client',
        'server',
        'release.json',
      ]);
      for await (const c of packer) chunks.push(c as Buffer);
      const data = Buffer.concat(chunks);
      log(`${remote}: packed ${files} entries (${kB(data.length)} gzip)`);
      let shown = -1;
      const upload = await call(
        site,
        'POST',
        `api/releases/${remote}`,
        token,
        { data, type: 'application/gzip' },
        (sent, total) => {
          const pct = Math.floor((sent / total) * 100);
          if (pct >= shown + 25 || sent === total) {
            shown = pct;
            log(`${remote}: uploading ${pct}% (${kB(sent)} of ${kB(total)})`);
          }
        },
      );
      log(`${remote}: the site is checking ${draft.id}`);
      const stored = expectOk(upload, 'Upload', remote);
      const preview = new URL(String(stored.previewUrl));
      const previewLink = new URL(preview.pathname + preview.search, site).href;
      if (!cmd.activate) {
        log(`${remote}: ${stored.id} stored, not active. Preview it (24 hours, this browser only):\n  ${previewLink}`);
        log(
          `Activate it with: curl -X POST -H "Authorization: Bearer $RELEASE_TOKEN" -H 'Content-Type: application/json' -d '{"id":"${stored.id}"}' ${site}api/releases/${remote}/activate`,
        );
        return;
      }
      const body = Buffer.from(
        JSON.stringify({ id: stored.id, ...(cmd.canary !== undefined ? { canary: cmd.canary } : {}) }),
      );
      const active = expectOk(
        await call(site, 'POST', `api/releases/${remote}/activate`, token, { data: body, type: 'application/json' }),
        'Activation',
        remote,
      );
      if (cmd.canary !== undefined)
        log(`${remote}: ${stored.id} serves ${cmd.canary}% of visitors as a canary beside ${active.active}`);
      else log(`${remote}: ${active.active} is active (was ${active.from ?? 'none'})`);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  } else if (cmd.command === 'rollback') {
    const remote = cmd.remote!;
    const body = Buffer.from(
      JSON.stringify({ ...(cmd.to ? { to: cmd.to } : {}), ...(cmd.force ? { force: true } : {}) }),
    );
    const r = expectOk(
      await call(site, 'POST', `api/releases/${remote}/rollback`, token, { data: body, type: 'application/json' }),
      'Rollback',
      remote,
    );
    log(`${remote}: rolled back from ${r.from} to ${r.active}`);
  } else if (cmd.command === 'promote' || cmd.command === 'abort') {
    const remote = cmd.remote!;
    const r = expectOk(
      await call(site, 'POST', `api/releases/${remote}/${cmd.command}`, token, {
        data: Buffer.from('{}'),
        type: 'application/json',
      }),
      cmd.command === 'promote' ? 'Promotion' : 'Abort',
      remote,
    );
    log(
      cmd.command === 'promote'
        ? `${remote}: canary ${r.active} promoted, active for everyone (was ${r.from})`
        : `${remote}: canary ${r.aborted} ended; everyone gets ${r.active}`,
    );
  } else {
    const remotes = cmd.remote ? [cmd.remote] : [...REMOTE_NAMES];
    for (const remote of remotes) {
      const answer = await call(site, 'GET', `api/releases/${remote}`, token);
      // Listing every remote with a team's token: the others are not this token's to see.
      if (answer.status === 403 && !cmd.remote) continue;
      const { data } = expectOk(answer, 'Listing', remote) as {
        data: {
          releases: { id: string; builtAt: string; active: boolean; releasedBy: string | null }[];
          canary: { id: string; percent: number; since: string; by: string } | null;
          history: {
            at: string;
            action: string;
            from: string | null;
            id: string;
            by: string;
            canary?: number;
            note?: string;
          }[];
          health?: WatchReport;
        };
      };
      log(`${remote}:`);
      if (!data.releases.length) log('  (no releases)');
      for (const r of data.releases)
        log(
          `  ${r.active ? '*' : r.id === data.canary?.id ? 'c' : ' '} ${r.id}  built ${r.builtAt}${r.releasedBy ? `  uploaded by ${r.releasedBy}` : ''}`,
        );
      if (data.canary)
        log(
          `  canary: ${data.canary.id} serves ${data.canary.percent}% of visitors since ${data.canary.since} (by ${data.canary.by})`,
        );
      if (data.health) log(formatWatch(data.health));
      for (const e of data.history.slice(-5))
        log(
          `    ${e.at}  ${e.action.padEnd(8)} ${e.from ?? '-'} -> ${e.id}${e.canary ? ` (${e.canary}%)` : ''}  by ${e.by}`,
        );
      for (const e of data.history.filter((h) => h.by === AUTOMATIC_ACTOR))
        log(`  ! ${e.at}  ${e.note ?? 'automatic rollback'}`);
    }
  }
}
