import { readdirSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

export interface FolderWatch {
  /** Watches the folders there are now, in place of the ones watched before. */
  rewatch(): void;
  close(): void;
}

/**
 * Calls `onChange` when a file that decides which release serves a remote may have changed. It watches the folders
 * holding those files: the releases folder (manifest.json), each remote's folder (releases added, removed or
 * renamed) and each release's folder, client/ and server/ (release.json and the two entries). A watch on a folder
 * reports the writes, renames and removals of the files in it, a file replaced by a rename (an atomic write)
 * included; Node's recursive watch on Linux watches each file instead, and loses such a file's later changes.
 * The owner calls `rewatch()` before it reads the files again: a folder added since the last call is covered by its
 * parent's watch until then.
 */
export function watchReleaseFolders(
  releasesDir: string,
  remotes: readonly string[],
  onChange: () => void,
): FolderWatch {
  let watchers: FSWatcher[] = [];
  const close = () => {
    for (const w of watchers) w.close();
    watchers = [];
  };
  const folders = (): string[] => {
    const out = [releasesDir];
    for (const remote of remotes) {
      const dir = join(releasesDir, remote);
      try {
        for (const e of readdirSync(dir, { withFileTypes: true }))
          if (e.isDirectory()) out.push(join(dir, e.name), join(dir, e.name, 'client'), join(dir, e.name, 'server'));
        out.push(dir);
      } catch {
        /* no release of this remote yet: the releases folder's watch sees its folder appear */
      }
    }
    return out;
  };
  return {
    rewatch() {
      close();
      for (const folder of folders()) {
        try {
          // Not persistent: a watch never keeps a process (a command, a test) alive.
          watchers.push(watch(folder, { persistent: false }, onChange).on('error', onChange));
        } catch {
          /* a folder that is missing (a damaged release) or cannot be watched: the owner's re-check covers it */
        }
      }
    },
    close,
  };
}
