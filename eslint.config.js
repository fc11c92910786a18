// One lint for the workspace: recommended rule sets (JS, typescript-eslint, React hooks) and the boundaries between
// the deployables, which the site's architecture depends on (README, "The structure").
import { existsSync } from 'node:fs';
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The api's floors, bottom to top (docs/architecture.md, "The api's floors"): a folder or top file of api/src imports
 * its own files and the floors below its own, never its own floor's other parts nor a floor above, so no import runs
 * back up and no two parts form a circle. The coming folders (checks, search, mcp, jobs) are placed where they go.
 */
export const API_FLOORS = [
  // The ground: paths, the database and the bare HTTP server.
  ['paths'],
  ['db', 'http', 'inspectionsFile'],
  // What every request and write leans on: the configuration, the middleware, the shared caches' headers and purges.
  ['config', 'middleware', 'edge'],
  // The shared write path under every feature: audit trail, data version, revisions, the slug rule of tools.
  ['content'],
  // The features, each on the floor its imports put it.
  ['checks', 'events', 'forms', 'releases'],
  ['registry'],
  ['tools', 'blog', 'metrics'],
  // What reads several features: images, moderation, pages, feeds, search, the MCP endpoint, the seed composer.
  ['images', 'moderation', 'ssr', 'feeds', 'seo', 'search', 'mcp', 'seed'],
  // Scheduled work, the operator console, the site's app, the process and the build's seed-codes step.
  ['jobs'],
  ['console'],
  ['app'],
  ['main', 'seedCodes'],
];

/** The parts of the repository, most specific first (a file belongs to the first pattern it matches). */
const elements = [
  { type: 'contracts', pattern: 'contracts/**', partialMatch: false },
  { type: 'seed-data', pattern: 'api/data/**', partialMatch: false },
  // A folder of the api's source (its files at the top, app.ts and the like, are `api`: apiParts names them by path).
  { type: 'api-part', pattern: 'api/src/*/**', partialMatch: false, capture: ['part'] },
  { type: 'api', pattern: 'api/**', partialMatch: false },
  { type: 'platform', pattern: 'shell/platform/**', partialMatch: false },
  { type: 'shell-contract', pattern: 'shell/contract/**', partialMatch: false },
  { type: 'shell', pattern: 'shell/**', partialMatch: false },
  { type: 'feature', pattern: 'mfe-*/src/features/*/**', partialMatch: false, capture: ['name', 'feature'] },
  { type: 'remote', pattern: 'mfe-*/**', partialMatch: false, capture: ['name'] },
  { type: 'console', pattern: 'console/**', partialMatch: false },
  { type: 'tests', pattern: 'tests/**', partialMatch: false },
  { type: 'scripts', pattern: 'scripts/**', partialMatch: false },
];

/** A remote's own code: its routes, shared folder and features (src/features/<feature>). */
const REMOTE = { types: { anyOf: ['remote', 'feature'] } };
/** The api's code, its source's parts and the rest (api/test, build script). */
const API = { types: { anyOf: ['api', 'api-part'] } };
/** The api's files at the top of api/src (app.ts, ...), each a part of its own. */
const API_TOP_FILES = API_FLOORS.flat().filter((p) => existsSync(new URL(`./api/src/${p}.ts`, import.meta.url)));
/** A selector of the files of these parts of the api (folders and top files). */
function apiParts(parts) {
  const folders = parts.filter((p) => !API_TOP_FILES.includes(p));
  const files = parts.filter((p) => API_TOP_FILES.includes(p));
  return [
    ...(folders.length ? [{ element: { type: 'api-part', captured: { part: `@(${folders.join('|')})` } } }] : []),
    ...(files.length ? [{ file: { path: `api/src/@(${files.join('|')}).ts` } }] : []),
  ];
}

/** The features every other feature of a remote may use: the domain (a tool and its pricing; a blog post). */
const DOMAIN_FEATURES = 'tools|pricing|posts';

/** The nevers. Anything not named here is allowed. */
const nevers = [
  {
    from: { element: REMOTE },
    disallow: { to: { element: { ...REMOTE, captured: { name: '!{{from.captured.name}}' } } } },
    message: 'A remote never imports another remote: each is built and released on its own.',
  },
  {
    from: { element: { type: 'feature' } },
    disallow: {
      to: { element: { type: 'feature', captured: { feature: `!(${DOMAIN_FEATURES}|{{from.captured.feature}})` } } },
    },
    message:
      "A feature uses its own files, the remote's shared/ folder and the domain features (tools, pricing, posts); pages (src/routes) compose the rest.",
  },
  {
    from: { element: REMOTE },
    disallow: { to: [{ element: { types: { anyOf: ['shell', 'seed-data'] } } }, { element: API }] },
    message:
      'A remote reaches the shell only through @aitools/platform, and never imports the api: what they share is in @aitools/contracts.',
  },
  {
    // Tests may check a remote's logic against the real seed records; no build bundles a test.
    from: { element: REMOTE, file: { categories: 'test' } },
    allow: { to: { element: { type: 'seed-data' } } },
  },
  {
    from: { element: { type: 'shell' } },
    disallow: { to: { element: REMOTE } },
    message: 'The shell never imports a remote: remotes are loaded at run time from their active release.',
  },
  {
    from: { element: { type: 'platform' } },
    disallow: { to: [{ element: { types: { anyOf: ['shell', 'remote', 'feature'] } } }, { element: API }] },
    message: 'shell/platform is the SDK every remote bundles: it never imports the shell, a remote or the api.',
  },
  {
    from: { element: API },
    disallow: { to: { element: REMOTE } },
    message: "The api never imports a remote's sources: it renders from the remote's active release.",
  },
  {
    from: { element: API },
    disallow: { to: { element: { type: 'shell' } } },
    message: 'The api reaches the shell only through its package export @aitools/shell/server (types: shell/contract).',
  },
  {
    from: { element: { type: 'console' } },
    disallow: {
      to: [{ element: { types: { anyOf: ['seed-data', 'shell', 'remote', 'feature'] } } }, { element: API }],
    },
    message:
      'The console is its own app on its own origin: it talks to the api over HTTP and shares only @aitools/contracts.',
  },
  {
    from: [{ element: { types: { anyOf: ['shell', 'platform', 'remote', 'feature'] } } }, { element: API }],
    disallow: { to: { element: { type: 'console' } } },
    message: "Nothing imports the console's sources: the api serves its build (console/dist) as files.",
  },
  {
    from: { element: { type: 'contracts' } },
    disallow: {
      to: {
        element: {
          types: {
            anyOf: [
              'api',
              'api-part',
              'seed-data',
              'shell',
              'platform',
              'remote',
              'feature',
              'console',
              'tests',
              'scripts',
            ],
          },
        },
      },
    },
    message:
      '@aitools/contracts is the ground floor, bundled by the api and the remotes alike: it imports no other part of the repository.',
  },
];

/** The api's floors as nevers: per floor, no import of its own floor's other parts nor of a floor above; then the
 *  three floors named on their own (their messages say why), and the tests, which may use the whole api. */
const apiFloors = API_FLOORS.flatMap((floor, i) => {
  const below = API_FLOORS.slice(0, i).flat();
  return floor
    .map((part) => ({
      part,
      above: API_FLOORS.slice(i)
        .flat()
        .filter((p) => p !== part),
    }))
    .filter(({ above }) => above.length)
    .map(({ part, above }) => ({
      from: apiParts([part]),
      disallow: { to: apiParts(above) },
      message: `An api part imports only the floors below its own (docs/architecture.md, "The api's floors"): ${part} is on floor ${i}, over ${below.join(', ') || 'nothing'}.`,
    }));
});
const apiNevers = [
  ...apiFloors,
  {
    from: apiParts(['db']),
    disallow: { to: apiParts(API_FLOORS.flat().filter((p) => !['db', 'paths'].includes(p))) },
    message:
      'The database layer (api/src/db) imports no feature, nor any other part of the api but paths: what writes public data goes through the shared write path (api/src/content), and the seed composer sits beside main.ts.',
  },
  {
    from: apiParts(API_FLOORS.flat().filter((p) => !['console', 'app', 'main'].includes(p))),
    disallow: { to: apiParts(['console']) },
    message:
      "No api folder imports the console's: the console is a caller like the CLIs and the release API; what they share (the audit trail, the data version) is in api/src/content.",
  },
  {
    from: apiParts(['edge']),
    disallow: { to: apiParts(['releases']) },
    message:
      'edge/ keeps the headers and the purge queue, and never imports releases/: what a release change purges, and the canary side, are in releases/.',
  },
  {
    // A test may use any part of the api: many start the whole app.
    from: { element: API, file: { categories: 'test' } },
    allow: { to: { element: API } },
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'api/var/**', '**/coverage/**', 'tests/.monolith/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      // A leading underscore marks a value left out on purpose (`const { id: _id, ...rest } = row`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // The React Compiler's checks: the site is not built with the compiler, and what they flag here is intended
      // (refs holding the latest value, browser-only state set once mounted so hydration matches the server).
      'react-hooks/refs': 'off',
      'react-hooks/set-state-in-effect': 'off',
      'react-hooks/immutability': 'off',
      'react-hooks/preserve-manual-memoization': 'off',
    },
  },
  {
    // The api's package name does not resolve where it is not a dependency, so the boundary rule cannot see it: named here.
    files: ['mfe-*/**/*.{ts,tsx}', 'contracts/**/*.ts', 'console/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@aitools/api', '@aitools/api/*'],
              message: 'A remote (and the contracts) never imports the api: what they share is in @aitools/contracts.',
            },
          ],
        },
      ],
    },
  },
  {
    // These tests check that control characters are stripped or refused, so their patterns name them.
    files: ['**/*.test.{ts,tsx}', 'api/test/**'],
    rules: { 'no-control-regex': 'off' },
  },
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'boundaries/files': [{ category: 'test', pattern: ['**/*.test.{ts,tsx}', 'api/test/**', 'mfe-*/test/**'] }],
      'import/resolver': {
        typescript: {
          project: ['*/tsconfig.json', 'shell/platform/tsconfig.json'],
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
        },
      },
    },
    rules: {
      // checkInternals: the api's top files are one element (`api`), so an import between two of them is internal.
      'boundaries/dependencies': [
        'error',
        { default: 'allow', checkInternals: true, policies: [...nevers, ...apiNevers] },
      ],
    },
  },
);
