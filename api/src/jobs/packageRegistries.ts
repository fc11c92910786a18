/**
 * The latest release of a package, from its registry's own HTTP answer: npm's registry API (`GET <registry>/<name>/
 * latest`, the manifest of the `latest` tag) and PyPI's JSON API (`GET <pypi>/pypi/<name>/json`). Answers are bounded
 * in size and time and read as data: a version the official registry would refuse is refused here too
 * (registry/versions.ts versionRefusal).
 */
import { versionRefusal } from '../registry/versions';

export interface Release {
  version: string;
}

/** The most of an answer read (a version manifest is a few kB; a PyPI project page can be a few hundred). */
export const ANSWER_MAX_BYTES = 4 * 1024 * 1024;
export const ANSWER_TIMEOUT_MS = 20_000;

/** npm's address of a package: a scoped name keeps its @ and has its slash encoded. */
export const npmPath = (name: string) =>
  name.startsWith('@') ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name);

async function boundedJson(url: string, signal: AbortSignal): Promise<unknown> {
  const res = await fetch(url, {
    headers: { accept: 'application/json' },
    redirect: 'follow',
    signal: AbortSignal.any([signal, AbortSignal.timeout(ANSWER_TIMEOUT_MS)]),
  });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > ANSWER_MAX_BYTES) throw new Error(`${url} answered more than ${ANSWER_MAX_BYTES} bytes`);
  const reader = res.body?.getReader();
  if (!reader) throw new Error(`${url} answered no body`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > ANSWER_MAX_BYTES) {
      await reader.cancel();
      throw new Error(`${url} answered more than ${ANSWER_MAX_BYTES} bytes`);
    }
    chunks.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new Error(`${url} answered something that is not JSON`);
  }
}

function checked(version: unknown, from: string): Release {
  if (typeof version !== 'string') throw new Error(`${from}: no version in the answer`);
  const refusal = versionRefusal(version);
  if (refusal) throw new Error(`${from}: a version the registry would refuse (${refusal})`);
  return { version };
}

export async function latestNpm(registry: string, name: string, signal: AbortSignal): Promise<Release> {
  const answer = (await boundedJson(`${registry}/${npmPath(name)}/latest`, signal)) as { version?: unknown } | null;
  return checked(answer?.version, `npm ${name}`);
}

export async function latestPypi(base: string, name: string, signal: AbortSignal): Promise<Release> {
  const answer = (await boundedJson(`${base}/pypi/${encodeURIComponent(name)}/json`, signal)) as {
    info?: { version?: unknown };
  } | null;
  return checked(answer?.info?.version, `PyPI ${name}`);
}
