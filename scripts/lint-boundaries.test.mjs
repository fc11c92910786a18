// Proves the boundary rule of eslint.config.js: each never, written as an import in a file that does not exist
// on disk (ESLint lints the text as if it lived at that path), is an error; the allowed imports are not.
// Run by `npm test` after `pnpm lint` (node's test runner: plain Node, like the rest of scripts/).
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import { ROOT } from './lib.mjs';

const eslint = new ESLint({ cwd: ROOT });

/** The errors of rule `ruleId` that ESLint reports for `imports` written in a file at `path`. */
async function lintErrors(ruleId, path, imports) {
  const code =
    imports.map((spec, i) => `import m${i} from '${spec}';`).join('\n') +
    `\nexport default [${imports.map((_, i) => `m${i}`).join(', ')}];\n`;
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${path}` });
  return result.messages.filter((m) => m.ruleId === ruleId).map((m) => `${m.line}: ${m.message}`);
}
const boundaryErrors = (path, ...imports) => lintErrors('boundaries/dependencies', path, imports);
const restrictedImports = (path, ...imports) => lintErrors('no-restricted-imports', path, imports);

test('a remote never imports another remote', async () => {
  const errors = await boundaryErrors(
    'mfe-blog/src/probe.ts',
    '../../mfe-directory/src/features/pricing/pricing',
    '../../mfe-directory/src/routes/Home',
  );
  assert.deepEqual(errors, [
    '1: A remote never imports another remote: each is built and released on its own.',
    '2: A remote never imports another remote: each is built and released on its own.',
  ]);
  // From inside a feature too.
  assert.match(
    (
      await boundaryErrors(
        'mfe-blog/src/features/posts/probe.ts',
        '../../../../mfe-directory/src/features/pricing/pricing',
      )
    )[0],
    /never imports another remote/,
  );
});

test("a remote's feature never imports another feature, except the domain ones (tools, pricing) and shared/", async () => {
  const errors = await boundaryErrors(
    'mfe-directory/src/features/faq/probe.ts',
    '../listing/pageMemory',
    '../install/CopyButton',
  );
  assert.deepEqual(
    errors.map((e) => e.split(':')[0]),
    ['1', '2'],
  );
  assert.match(errors[0], /A feature uses its own files/);
  const allowed = [
    './homeFaq',
    '../tools/api/loadTools',
    '../pricing/pricing',
    '../../shared/email',
    '@aitools/platform',
    '@aitools/contracts/tools',
  ];
  assert.deepEqual(await boundaryErrors('mfe-directory/src/features/faq/probe.ts', ...allowed), []);
  // Pages compose features.
  assert.deepEqual(
    await boundaryErrors(
      'mfe-directory/src/routes/probe.ts',
      '../features/listing/pageMemory',
      '../features/faq/homeFaq',
    ),
    [],
  );
});

test("the feature rule holds in every remote: the blog's domain feature is posts", async () => {
  const errors = await boundaryErrors('mfe-blog/src/features/listing/probe.ts', '../post/markdown');
  assert.match(errors[0], /A feature uses its own files/);
  assert.deepEqual(
    await boundaryErrors('mfe-blog/src/features/listing/probe.ts', './listing', '../posts/posts', '../../shared/dates'),
    [],
  );
  assert.match(
    (await boundaryErrors('mfe-forms/src/features/contact/probe.ts', '../submit/submitForm'))[0],
    /A feature uses its own files/,
  );
});

test('a remote never imports shell/src, nor the api (not even through its package name)', async () => {
  const errors = await boundaryErrors(
    'mfe-blog/src/probe.ts',
    '../../shell/src/routes',
    '../../api/src/db/connection',
    '../../api/data/mcp-servers.json',
  );
  assert.deepEqual(
    errors.map((e) => e.split(':')[0]),
    ['1', '2', '3'],
  );
  assert.match(
    errors[0],
    /only through @aitools\/platform, and never imports the api: what they share is in @aitools\/contracts/,
  );
  // From inside a feature too.
  assert.match(
    (await boundaryErrors('mfe-directory/src/features/listing/probe.ts', '../../../../api/src/tools/repository'))[0],
    /never imports the api/,
  );
  // The package name does not resolve from a remote (it does not depend on the api), so a rule of its own names it.
  for (const path of ['mfe-forms/src/probe.ts', 'contracts/src/probe.ts']) {
    const named = await restrictedImports(path, '@aitools/api', '@aitools/api/contracts/tools', '@aitools/platform');
    assert.deepEqual(
      named.map((e) => e.split(':')[0]),
      ['1', '2'],
      path,
    );
    assert.match(named[0], /never imports the api/);
  }
});

test('a remote may import its own files, the platform and the contracts; its tests may read the seed data', async () => {
  assert.deepEqual(
    await boundaryErrors('mfe-blog/src/probe.ts', './routes/BlogList', '@aitools/platform', '@aitools/contracts/tools'),
    [],
  );
  assert.deepEqual(await boundaryErrors('mfe-blog/src/probe.test.ts', '../../api/data/mcp-servers.json'), []);
});

test("the shell never imports a remote, the platform never imports the shell, the api never imports a remote's sources", async () => {
  assert.match(
    (await boundaryErrors('shell/src/probe.ts', '../../mfe-blog/src/routes/BlogList'))[0],
    /The shell never imports a remote/,
  );
  assert.match((await boundaryErrors('shell/platform/src/probe.ts', '../../src/routes'))[0], /never imports the shell/);
  assert.match(
    (await boundaryErrors('api/src/probe.ts', '../../mfe-blog/src/routes/BlogList'))[0],
    /The api never imports a remote/,
  );
});

test('everyone may import the contracts; the contracts import no other part of the repository', async () => {
  for (const path of [
    'api/src/probe.ts',
    'shell/src/probe.ts',
    'shell/platform/src/probe.ts',
    'mfe-forms/src/probe.ts',
    'mfe-directory/src/features/faq/probe.ts',
    'tests/e2e/probe.ts',
  ])
    assert.deepEqual(await boundaryErrors(path, '@aitools/contracts/tools'), [], path);
  const errors = await boundaryErrors(
    'contracts/src/probe.ts',
    '../../api/src/db/connection',
    '../../shell/platform/src/api',
    '../../mfe-blog/src/routes/BlogList',
  );
  assert.deepEqual(
    errors.map((e) => e.split(':')[0]),
    ['1', '2', '3'],
  );
  for (const error of errors) assert.match(error, /@aitools\/contracts is the ground floor/);
  assert.deepEqual(await boundaryErrors('contracts/src/probe.ts', './tools', 'zod'), []);
});

test("the api reaches the shell only through the shell's server contract", async () => {
  assert.match(
    (await boundaryErrors('api/src/probe.ts', '../../shell/src/routes'))[0],
    /only through its package export @aitools\/shell\/server/,
  );
  assert.deepEqual(await boundaryErrors('api/src/probe.ts', '@aitools/shell/server'), []);
});

/** Asserts that ESLint refuses each of `imports` in a file at `path`, with a message matching `message`. */
async function assertRefused(path, imports, message) {
  for (const spec of imports) {
    const [error] = await boundaryErrors(path, spec);
    assert.match(error ?? 'allowed', message, `${path} -> ${spec}`);
  }
}

test('the database layer imports no feature, nor any other part of the api but paths', async () => {
  await assertRefused(
    'api/src/db/probe.ts',
    ['../tools/repository', '../seed', '../content/dataVersion'],
    /The database layer \(api\/src\/db\) imports no feature/,
  );
  assert.deepEqual(await boundaryErrors('api/src/db/probe.ts', './connection', './schema', '../paths'), []);
});

test("no api folder imports the console's; only the app mounts it", async () => {
  for (const path of ['api/src/releases/probe.ts', 'api/src/tools/probe.ts', 'api/src/content/probe.ts'])
    await assertRefused(path, ['../console/guard'], /No api folder imports the console's/);
  await assertRefused('api/src/seed.ts', ['./console/tools'], /No api folder imports the console's/);
  assert.deepEqual(await boundaryErrors('api/src/app.ts', './console/app'), []);
  assert.deepEqual(await boundaryErrors('api/src/console/probe.ts', './guard', '../content/audit'), []);
});

test('edge/ never imports releases/; releases/ uses the purge queue and the headers of edge/', async () => {
  await assertRefused(
    'api/src/edge/probe.ts',
    ['../releases/canary', '../releases/releaseChange'],
    /edge\/ keeps the headers and the purge queue, and never imports releases\//,
  );
  assert.deepEqual(await boundaryErrors('api/src/releases/probe.ts', '../edge/purges', '../edge/headers'), []);
});

test('an api part imports only the floors below its own: no import runs back up, none goes sideways', async () => {
  for (const [path, spec, floor] of [
    // Back up: the loops there were before the floors.
    ['api/src/config.ts', './releases/autoRollback', 'config is on floor 2'],
    ['api/src/registry/probe.ts', '../tools/repository', 'registry is on floor 5'],
    ['api/src/tools/probe.ts', '../images/service', 'tools is on floor 6'],
    ['api/src/releases/probe.ts', '../ssr/renderPage', 'releases is on floor 4'],
    ['api/src/app.ts', './main', 'app is on floor 10'],
    // Sideways: two parts of one floor, which could otherwise import each other.
    ['api/src/tools/probe.ts', '../blog/repository', 'tools is on floor 6'],
    ['api/src/events/probe.ts', '../forms/repository', 'events is on floor 4'],
  ])
    await assertRefused(path, [spec], new RegExp(`An api part imports only the floors below its own.*${floor}`));
  assert.deepEqual(
    await boundaryErrors(
      'api/src/tools/probe.ts',
      './repository',
      '../registry/repository',
      '../content/toolSlugs',
      '../edge/headers',
      '../db/connection',
      '../config',
    ),
    [],
  );
  assert.deepEqual(await boundaryErrors('api/src/main.ts', './app', './seed', './releases/openReleaseStore'), []);
});

test('a test of the api may use any part of it (many start the whole app)', async () => {
  assert.deepEqual(
    await boundaryErrors('api/src/edge/probe.test.ts', '../app', '../releases/canary', '../console/guard'),
    [],
  );
});

test('every folder and top file of api/src is on a floor, and each folder says what it owns', async () => {
  const { API_FLOORS } = await import('../eslint.config.js');
  const floored = new Set(API_FLOORS.flat());
  const parts = readdirSync(join(ROOT, 'api/src'), { withFileTypes: true })
    .filter((e) => e.isDirectory() || (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')))
    .map((e) => e.name.replace(/\.ts$/, ''));
  assert.deepEqual(
    parts.filter((p) => !floored.has(p)),
    [],
    'add it to API_FLOORS in eslint.config.js',
  );
  const folders = readdirSync(join(ROOT, 'api/src'), { withFileTypes: true }).filter((e) => e.isDirectory());
  assert.deepEqual(
    folders.filter((e) => !existsSync(join(ROOT, 'api/src', e.name, 'README.md'))).map((e) => e.name),
    [],
    'a folder of api/src opens with a README.md on what it owns',
  );
});
