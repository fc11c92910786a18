/**
 * The `sync` job: follows the upstream registries (moderation/upstreamSync.ts, the service `pnpm registry sync` and
 * the console's "Sync now" run too), every hour unless JOB_SYNC_EVERY says otherwise. An upstream refused fails the
 * run with its reason; the others' changes are kept, each upstream's run being all or nothing.
 */
import { syncFollowed } from '../moderation/upstreamSync';
import { countsText } from '../registry/sync';
import type { Job } from './job';
import type { ServerConfig } from '../config';

export function syncJob({ config }: { config: ServerConfig }): Job {
  return {
    name: 'sync',
    every: 60 * 60_000,
    about: 'Follows the upstream registries: what changed since the last good sync',
    async run(ctx) {
      const results = await syncFollowed(ctx.db, config.registrySync, undefined, ctx.signal);
      for (const r of results) {
        if (r.outcome !== 'ok') continue;
        for (const kind of ['added', 'listed', 'updated', 'deleted'] as const)
          if (r.counts[kind]) ctx.changed(kind, r.counts[kind], `${r.upstream}: ${countsText(r.counts)}`);
      }
      const refused = results.filter((r) => r.outcome === 'refused');
      if (refused.length) throw new Error(refused.map((r) => `${r.upstream} refused: ${r.reason}`).join('; '));
    },
  };
}
