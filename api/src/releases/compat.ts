import semver from 'semver';
import { SHARED_PACKAGES } from '@aitools/platform/shared';

/** Problems with a remote's shared-dependency ranges against the versions the shell runs; empty when compatible. */
export function sharedRangeProblems(
  remoteRanges: Record<string, string | undefined>,
  shellVersions: Record<string, string | undefined>,
): string[] {
  const problems: string[] = [];
  for (const name of SHARED_PACKAGES) {
    const range = remoteRanges[name];
    const version = shellVersions[name];
    if (!range) {
      problems.push(`${name}: the remote does not declare a range for this shared package`);
    } else if (!version) {
      problems.push(`${name}: the shell does not provide this shared package`);
    } else if (!semver.validRange(range)) {
      problems.push(`${name}: "${range}" is not a valid version range`);
    } else if (!semver.satisfies(version, range)) {
      problems.push(`${name}: the remote needs ${range} but the shell provides ${version}`);
    }
  }
  return problems;
}
