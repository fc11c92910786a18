/**
 * `pnpm registry …`: the registry's own commands (registry/cli.ts), and
 *   pnpm registry sync [upstream]   (follow the upstream registries now: every one, or the one with this id or address)
 * which lists new servers through the moderators' approval where an upstream's policy says so (upstreamSync.ts).
 */
import { loadConfig } from '../config';
import { openDatabase } from '../db/connection';
import { formatSyncResult } from '../registry/sync';
import { registryCommand, runCli } from '../registry/cli';
import { addConfiguredUpstreams } from '../registry/upstreams';
import { syncFollowed } from './upstreamSync';

async function syncCommand(only: string | undefined): Promise<number> {
  const config = loadConfig();
  const db = await openDatabase(config.database);
  try {
    const { upstreams, pagesPerRun } = config.registrySync;
    await addConfiguredUpstreams(db, upstreams, pagesPerRun);
    const results = await syncFollowed(db, config.registrySync, only);
    if (!results.length) console.log('No upstream is followed: add one in the console or with REGISTRY_UPSTREAMS.');
    for (const r of results) console.log(formatSyncResult(r));
    return results.some((r) => r.outcome === 'refused') ? 1 : 0;
  } finally {
    await db.destroy();
  }
}

await runCli((argv) => (argv[0] === 'sync' ? syncCommand(argv[1]) : registryCommand(argv)));
