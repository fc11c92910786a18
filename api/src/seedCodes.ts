/**
 * Run by the build (api/build.mjs): the seed's tools' codes, made once with the model and written beside the server
 * as seed-codes.json (digest to code), so a server's first start codes none of them (tools/meaning/meaning.ts,
 * builtCodes): 6-7 s
 * of one core at each fresh start otherwise (docs/operations.md, Search meaning).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from './db/connection';
import { seed } from './seed';
import { listToolSummaries } from './tools/repository';
import { codeDigest, toolText } from './tools/meaning/meaning';
import codes from './tools/meaning/meaningWorker';
import { CODE_BYTES } from './tools/meaning/codes';

const [out] = process.argv.slice(2);
if (!out) throw new Error('usage: seedCodes <file to write>');
const dir = mkdtempSync(join(tmpdir(), 'aitools-seed-codes-'));
try {
  const db = await openDatabase(join(dir, 'seed.sqlite'));
  await seed(db);
  const tools = await listToolSummaries(db);
  await db.destroy();
  const all = await codes(tools.map(toolText));
  const byDigest = Object.fromEntries(
    tools.map((t, i) => [
      codeDigest(t),
      Buffer.from(all.subarray(i * CODE_BYTES, (i + 1) * CODE_BYTES)).toString('base64'),
    ]),
  );
  writeFileSync(out, `${JSON.stringify(byDigest)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
