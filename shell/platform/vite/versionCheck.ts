/**
 * The quick part of the version check a remote's federation runtime runs on each shared package the host offers
 * (federationSatisfy.ts). The ranges package.json files hold (`^x.y.z`, `~x.y.z`, `x.y.z`), against a release version
 * (`x.y.z`), are answered by comparing numbers, with node-semver's meaning; any other range or version is left to the
 * plugin's own check (undefined).
 */
const PART = '(0|[1-9]\\d*)';
const VERSION = new RegExp(`^${PART}\\.${PART}\\.${PART}$`);
const RANGE = new RegExp(`^\\s*([~^]?)${PART}\\.${PART}\\.${PART}\\s*$`);

export function quickSatisfy(version: string, range: string): boolean | undefined {
  const v = VERSION.exec(version);
  const r = RANGE.exec(range);
  if (!v || !r) return undefined;
  const [major, minor, patch] = v.slice(1).map(Number) as [number, number, number];
  const op = r[1];
  const [x, y, z] = r.slice(2).map(Number) as [number, number, number];
  const order = major - x || minor - y || patch - z;
  if (op === '') return order === 0;
  if (order < 0) return false;
  // ~x.y.z: the same minor. ^x.y.z: the same leftmost part that is not zero (^0.y.z keeps y, ^0.0.z keeps z).
  if (op === '~' || (x === 0 && y > 0)) return major === x && minor === y;
  if (x > 0) return major === x;
  return major === 0 && minor === 0 && patch === z;
}
