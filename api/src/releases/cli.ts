/**
 * Release tooling for operators and remote teams:
 *   pnpm release <remote> [--if-changed] [--package-dir <dir>]
 *                                             build, check, store and activate a new release
 *                                             (--package-dir: build from another checkout of the remote)
 *   pnpm release <remote> --canary <percent>  the same, but the new release serves that share of visitors
 *                                             beside the active one (releases/canary.ts)
 *   pnpm promote <remote>                      the canary becomes the active release for everyone
 *   pnpm abort <remote>                        the canary ends; everyone gets the active release
 *   pnpm rollback <remote> [--to <release-id>] [--force]
 *                                             point the remote at its previous (or a named) release (--force:
 *                                             to a release the server rolled back on its own)
 *   pnpm releases [<remote>]                   list releases, the active one and the canary marked, the error
 *                                             rates being watched and the automatic rollbacks
 * Each change takes --reason <text>, kept in the history and the audit trail (with the actor cli:<os user>).
 * The running servers pick up the change on the next page load (on Postgres, within a second, on every instance).
 * With --site <url> (and RELEASE_TOKEN), the same commands work against a running site through its release API,
 * from a team's own checkout or CI (remoteCli.ts); `pnpm release <remote> --site <url> --no-activate` uploads only
 * and prints a preview link.
 */
import { loadConfig } from '../config';
import { REMOTE_NAMES } from '../paths';
import { actor, listReleases, release } from './store';
import { abortCanary, auditRelease, promoteCanary, rollBackRelease, type Caller } from './actions';
import { cliActor } from '../content/audit';
import { AUTOMATIC_ACTOR, type ReleaseMeta } from './manifest';
import { createSignals } from './signals';
import { createRollbackMonitor } from './autoRollback';
import { canaryPercent, formatWatch } from './remoteCli';
import { fileManifestStore, LAST_GOOD_FILE } from './manifestFile';
import { openManifestStore } from './manifestStore';
import { isPostgresUrl, openDatabase } from '../db/connection';
import { checkRelease } from './health';
import { createReleaseServing } from './serving';
import { openReleaseStore } from './openReleaseStore';
import { shortDigest } from './sourceHash';
import { runRemoteCommand, type RemoteCommand } from './remoteCli';
import { ReleaseError, reportRefusal } from './refusal';
import { purgingChange } from './releaseChange';
import { reasonField } from '@aitools/contracts/fields';

const [command, ...args] = process.argv.slice(2);
const config = loadConfig();
const { releasesDir } = config;
const positional = args.filter(
  (a, i) =>
    !a.startsWith('--') && !['--to', '--package-dir', '--site', '--canary', '--reason'].includes(args[i - 1] ?? ''),
);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};

/** Source digest and commit of a release ("-" for a commit not recorded). */
const sourceLabel = (r: ReleaseMeta) => `${shortDigest(r.sourceHash)} @ ${r.source?.gitCommit?.slice(0, 10) ?? '-'}`;

function usage(): never {
  console.error(
    'Usage: release <remote|all> [--if-changed] [--package-dir <dir>] [--canary <1-99>] | promote <remote> | abort <remote> | rollback <remote> [--to <release-id>] [--force] | list [<remote>]; changes take --reason <text> (history and audit trail)',
  );
  console.error(
    '   or, against a running site (RELEASE_TOKEN set): add --site <url> to any of them; release also takes --no-activate',
  );
  process.exit(2);
}

if (!['release', 'rollback', 'list', 'promote', 'abort'].includes(command ?? '')) usage();
const site = option('--site');
let canary: number | undefined;
try {
  canary = canaryPercent(option('--canary'), flag('--canary'));
} catch (err) {
  console.error(`Error: ${(err as Error).message}`);
  process.exit(2);
}
const reason = option('--reason');
const checkedReason = reason === undefined ? undefined : reasonField().safeParse(reason);
if (checkedReason && !checkedReason.success) {
  console.error(`Error: --reason: ${checkedReason.error.issues[0]?.message}`);
  process.exit(2);
}
if (site) {
  if (command !== 'list' && !positional[0]) usage();
  try {
    await runRemoteCommand({
      command: command as RemoteCommand['command'],
      remote: positional[0],
      site,
      token: process.env.RELEASE_TOKEN,
      activate: !flag('--no-activate'),
      to: option('--to'),
      packageDir: option('--package-dir'),
      canary,
      force: flag('--force'),
    });
  } catch (err) {
    reportRefusal(err, ReleaseError);
  }
  process.exit();
}
// The manifest lives beside the files (manifest.json), or in the database when DATABASE_URL names a Postgres server.
// The database is opened in any case: every change is written to the audit trail (content/audit.ts).
const db = await openDatabase(config.database);
const manifests = isPostgresUrl(config.database)
  ? await openManifestStore({ releasesDir, database: config.database, db })
  : fileManifestStore(releasesDir);
const files = await openReleaseStore({ releasesDir, database: config.database, db });
const at = { releasesDir, manifests, files };
const caller: Caller = { db, actor: cliActor(), by: actor(), reason: checkedReason?.data };

try {
  if (command === 'release') {
    const target = positional[0] ?? usage();
    const remotes = target === 'all' ? [...REMOTE_NAMES] : [target];
    for (const remote of remotes) {
      const r = await purgingChange(db, remote, () =>
        release(remote, {
          ...at,
          ifChanged: flag('--if-changed'),
          packageDir: option('--package-dir'),
          canary,
        }),
      );
      if (!r.skipped) await auditRelease(caller, canary ? 'canary' : 'release', remote, `built and activated ${r.id}`);
    }
  } else if (command === 'rollback') {
    const remote = positional[0] ?? usage();
    const r = await rollBackRelease(at, remote, { to: option('--to'), force: flag('--force') }, caller);
    console.log(`${r.remote}: rolled back from ${r.from} to ${r.to}`);
  } else if (command === 'promote') {
    const remote = positional[0] ?? usage();
    const r = await promoteCanary(at, remote, caller);
    console.log(`${r.remote}: canary ${r.to} promoted, active for everyone (was ${r.from})`);
  } else if (command === 'abort') {
    const remote = positional[0] ?? usage();
    const r = await abortCanary(at, remote, caller);
    console.log(`${r.remote}: canary ${r.aborted} ended; everyone gets ${r.active}`);
  } else if (command === 'list') {
    const remotes = positional[0] ? [positional[0]] : [...REMOTE_NAMES];
    // The server's view: a bad manifest is reported and the last good state listed (what the site serves).
    const serving = createReleaseServing({
      releasesDir,
      manifests,
      remotes: REMOTE_NAMES,
      importEntry: () => Promise.reject(new Error('not imported here')),
      watch: false,
      recheckMs: 0,
    });
    const read = serving.manifest();
    // The error rates being watched, from the counts the servers wrote to the database.
    const signals = createSignals(db, {
      flushMs: 60_000,
      retentionMs: config.signalsRetentionDays * 86_400_000,
      maxKeys: 1,
      logger: undefined,
    });
    const monitor = createRollbackMonitor({
      manifests,
      releasesDir,
      signals,
      rule: config.rollback,
      everyMs: 0,
      remotes: REMOTE_NAMES,
      logger: console,
    });
    if (!read.ok) {
      console.log(`Manifest problem: ${manifests.where} ${read.problem}.`);
      console.log(
        read.servingFrom === 'none'
          ? '  No last good manifest is known: nothing can be served.'
          : `  Listing the last good state (${LAST_GOOD_FILE}) for: ${read.fromLastGood.join(', ') || 'none'}.`,
      );
    }
    for (const remote of remotes) {
      console.log(`${remote}:`);
      const list = await listReleases(at, remote);
      if (!list.length) console.log('  (no releases)');
      for (const r of list) {
        await files.materialise(remote, r.id);
        const check = checkRelease(releasesDir, remote, r.id);
        console.log(
          `  ${r.active ? '*' : ' '} ${r.id}  built ${r.builtAt}  source ${sourceLabel(r)}${check.ok ? '' : `  [not servable: ${check.problem}]`}`,
        );
      }
      const served = serving.current(remote);
      if (!served.release) console.log(`  ! not served: ${served.problem}`);
      else if (served.fallbackFrom)
        console.log(
          `  ! serving ${served.release.id} instead of ${served.fallbackFrom.id}: ${served.fallbackFrom.problem}`,
        );
      const state = read.manifest.remotes[remote];
      if (state?.canary)
        console.log(
          `  canary: ${state.canary.id} serves ${state.canary.percent}% of visitors since ${state.canary.since} (by ${state.canary.by})`,
        );
      const watch = await monitor.report(remote);
      if (watch) console.log(formatWatch(watch));
      const history = state?.history ?? [];
      for (const e of history.slice(-5))
        console.log(
          `    ${e.at}  ${e.action.padEnd(8)} ${e.from ?? '-'} -> ${e.id}${e.canary ? ` (${e.canary}%)` : ''}  by ${e.by}`,
        );
      for (const e of history.filter((h) => h.by === AUTOMATIC_ACTOR))
        console.log(`  ! ${e.at}  ${e.note ?? 'automatic rollback'}`);
    }
    monitor.stop();
    await signals.close();
  }
} catch (err) {
  reportRefusal(err, ReleaseError);
} finally {
  await manifests.close();
  await db.destroy();
}
