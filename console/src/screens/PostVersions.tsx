/** A post's versions: who saved each and when, what changed from one to the current, and a restore. */
import { useEffect, useState } from 'react';
import { api, errorText } from '../api';
import { ErrorNote, Loading } from '../components/Status';
import { ACTIONS, Table } from '../components/Table';
import { utc } from '../format';
import { useResource } from '../useResource';
import type { DiffLine, RevisionSummary } from '@aitools/contracts/editing';
import { VersionDiff } from '../components/VersionDiff';

export function PostVersions({
  slug,
  current,
  refresh,
  onRestored,
}: {
  slug: string;
  current: number;
  /** Changes after each save, to list the new version. */
  refresh: number;
  onRestored: () => Promise<void>;
}) {
  const list = useResource<{ versions: RevisionSummary[] }>(`/api/posts/${slug}/versions`);
  const { reload } = list;
  useEffect(() => {
    if (refresh) void reload();
  }, [refresh, reload]);
  const [diff, setDiff] = useState<{ from: number; lines: DiffLine[]; whole?: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const compare = async (from: number) => {
    try {
      setDiff({
        from,
        ...(await api.get<{ lines: DiffLine[]; whole: boolean }>(
          `/api/posts/${slug}/versions/${from}/diff?to=${current}`,
        )),
      });
    } catch (err) {
      setError(errorText(err));
    }
  };
  const restore = async (from: number) => {
    try {
      await api.post(`/api/posts/${slug}/versions/${from}/restore`, { base: current });
      await onRestored();
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <section className="card" aria-labelledby="versions-heading">
      <h2 id="versions-heading">Versions</h2>
      <ErrorNote>{list.error ?? error}</ErrorNote>
      {!list.data ? (
        !list.error && <Loading what="the versions" />
      ) : list.data.versions.length === 0 ? (
        <p>No version yet: the first save keeps the post as it was.</p>
      ) : (
        <Table caption="Versions, newest first" columns={['Version', 'Saved by', 'When (UTC)', ACTIONS]}>
          {list.data.versions.map((r) => (
            <tr key={r.version}>
              <td>{r.version === current ? `${r.version} (current)` : r.version}</td>
              <td>{r.author}</td>
              <td>{utc(r.created_at)}</td>
              <td>
                {r.version !== current && (
                  <>
                    <button type="button" className="btn" onClick={() => void compare(r.version)}>
                      Compare version {r.version}
                    </button>
                    <button type="button" className="btn" onClick={() => void restore(r.version)}>
                      Restore version {r.version}
                    </button>
                  </>
                )}
              </td>
            </tr>
          ))}
        </Table>
      )}
      {diff && (
        <VersionDiff
          caption={`Changes from version ${diff.from} to version ${current}`}
          label={`Changes from version ${diff.from} to version ${current}`}
          lines={diff.lines}
          whole={diff.whole}
        />
      )}
    </section>
  );
}
