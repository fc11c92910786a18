/**
 * The one place that knows how a remote is built for @originjs/vite-plugin-federation (browser) and for the
 * server (vite build --ssr). Swapping the federation runtime means changing this file and shell/src/remotes/federation.ts.
 *
 * A build is made for the address it will be served from (the plugin needs an absolute base: './' breaks its chunk
 * and CSS paths), so the release tool passes REMOTE_BASE and REMOTE_OUT_DIR; without them a build serves as the
 * remote's "dev" release from its own dist/ folder.
 */
import federation from '@originjs/vite-plugin-federation';
import react from '@vitejs/plugin-react';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UserConfig, ConfigEnv, Plugin, PluginOption, Rollup } from 'vite';
import { SHARED_PACKAGES, installedSharedVersions, isSharedSpecifier } from './shared';
import { exposesOf, ROUTE_TABLE } from '../src/routeTable';
import type { RoutePreload } from '../src/contract';

export interface RemoteOptions {
  /** Remote name as used in the manifest, e.g. "directory". */
  name: string;
  /** Package root (the folder holding package.json). */
  root: string;
}

/**
 * The remote's exposes, from the route table: each module the table names for it, from src/routes/<Name>.tsx. A
 * module whose file is missing fails the build, saying which route needs it.
 */
export function tableExposes(name: string, root: string): Record<string, string> {
  const exposes = exposesOf(name);
  if (!Object.keys(exposes).length)
    throw new Error(`The route table (shell/platform/src/routeTable.ts) names no route for the remote "${name}".`);
  for (const route of ROUTE_TABLE.filter((r) => r.remote === name)) {
    const file = exposes[route.module]!;
    if (!existsSync(join(root, file))) {
      throw new Error(
        `Route ${route.path} is rendered by ${name} ${route.module}, but ${file} does not exist in ${root}: add it, or change the route table (shell/platform/src/routeTable.ts).`,
      );
    }
  }
  return exposes;
}

export const REMOTE_ENTRY_FILE = 'remoteEntry.js';
/** Written beside the browser build: exposed module -> the files it needs, in the plugin-neutral form the server reads
 *  to list a route's code in one wave (no round trip per level of imports). */
export const PRELOAD_MANIFEST_FILE = 'preload.json';

/** Finds each exposed module's chunk (the plugin names it __federation_expose_<Name>) and its static imports, leaving
 *  out the plugin's fallback copies of shared packages: the host provides those, from its start-up chunks. */
function routePreloadManifest(exposed: string[]): Plugin {
  return {
    name: 'route-preload-manifest',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const manifest: Record<string, RoutePreload> = {};
      for (const key of exposed) {
        const chunk = chunks.find((c) => c.name === `__federation_expose_${key.replace(/^\.\//, '')}`);
        if (!chunk) continue;
        const files = new Set<string>();
        const visit = (c: Rollup.OutputChunk) => {
          if (files.has(c.fileName) || c.fileName.startsWith('__federation_shared_')) return;
          files.add(c.fileName);
          c.imports.forEach((f) => byFile.get(f) && visit(byFile.get(f)!));
        };
        visit(chunk);
        manifest[key] = { files: [...files] };
      }
      this.emitFile({ type: 'asset', fileName: PRELOAD_MANIFEST_FILE, source: JSON.stringify(manifest, null, 2) });
    },
  };
}
export const SERVER_ENTRY_FILE = 'entry.mjs';

const ROUTER_FACADE = fileURLToPath(new URL('../src/router.ts', import.meta.url));
const ROUTER_FACADE_TEST = ROUTER_FACADE.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/** Browser builds resolve react-router-dom to the platform's router facade (src/router.ts): the federated shared
 *  chunk then holds only the router APIs the site uses (a shared module is bundled whole). */
export function routerFacade(): Plugin {
  return {
    name: 'router-facade',
    enforce: 'pre',
    resolveId: (id) => (id === 'react-router-dom' ? ROUTER_FACADE : null),
  };
}

/** The federation plugin's own version check, which federationSatisfy.ts hands the ranges it does not know. */
export const PLUGIN_SATISFY = join(
  dirname(createRequire(import.meta.url).resolve('@originjs/vite-plugin-federation')),
  'satisfy.mjs',
);
const QUICK_CHECK_MODULES: Record<string, string> = {
  __federation_fn_satisfy: fileURLToPath(new URL('./federationSatisfy.ts', import.meta.url)),
  'federation-plugin-satisfy': PLUGIN_SATISFY,
};

/** A remote's runtime checks the host's shared packages with federationSatisfy.ts, which answers the site's ranges
 *  without compiling the plugin's regular expressions ("A remote checks the host's versions quickly" in
 *  docs/architecture.md). */
export function quickVersionCheck(): Plugin {
  return { name: 'quick-version-check', enforce: 'pre', resolveId: (id) => QUICK_CHECK_MODULES[id] ?? null };
}

/** Drops the two build warnings known to be harmless, so a real one stands out in `npm start`'s output:
 *  zod ships comments Rollup cannot place as annotations (it removes them; the code is unchanged), and the browser
 *  build's placeholder input is empty by design (the federation plugin emits the entry). */
function onwarn(warning: Rollup.RollupLog, warn: (w: Rollup.RollupLog) => void) {
  if (warning.code === 'INVALID_ANNOTATION' && /[\\/]zod[\\/]/.test(warning.id ?? '')) return;
  if (warning.code === 'EMPTY_BUNDLE' && warning.names?.includes('index')) return;
  warn(warning);
}

/** A remote's `shared` option: each shared package with the range its package.json asks for, which the runtime checks
 *  against the host's version. */
export function sharedConfig(root: string) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return Object.fromEntries(SHARED_PACKAGES.map((name) => [name, { requiredVersion: pkg.dependencies[name] }]));
}

export function remoteConfig(opts: RemoteOptions) {
  return ({ isSsrBuild }: ConfigEnv): UserConfig => {
    const exposes = tableExposes(opts.name, opts.root);
    const outDir = process.env.REMOTE_OUT_DIR ?? join(opts.root, 'dist');
    if (isSsrBuild) {
      return {
        root: opts.root,
        plugins: [react()],
        // Everything but the shared packages is bundled: a release folder has no node_modules.
        ssr: { noExternal: true, external: [...SHARED_PACKAGES, 'react-router'] },
        build: {
          ssr: join(opts.root, 'src/server-entry.ts'),
          outDir: join(outDir, 'server'),
          emptyOutDir: true,
          target: 'node24',
          rollupOptions: {
            input: join(opts.root, 'src/server-entry.ts'),
            external: (id: string) => isSharedSpecifier(id),
            onwarn,
            output: { entryFileNames: SERVER_ENTRY_FILE, format: 'es' },
          },
        },
      };
    }
    return {
      root: opts.root,
      base: process.env.REMOTE_BASE ?? `/remotes/${opts.name}/dev/`,
      plugins: [
        routerFacade(),
        quickVersionCheck(),
        react(),
        federation({
          name: opts.name,
          filename: REMOTE_ENTRY_FILE,
          // The shell links a release's stylesheet (and a server-rendered page has it inline): the plugin's own
          // <link> would fetch it a second time.
          exposes: Object.fromEntries(
            Object.entries(exposes).map(([key, file]) => [key, { import: file, dontAppendStylesToHead: true }]),
          ),
          shared: sharedConfig(opts.root),
        }),
        routePreloadManifest(Object.keys(exposes)),
      ],
      build: {
        outDir: join(outDir, 'client'),
        emptyOutDir: true,
        target: 'esnext',
        assetsDir: '',
        // One stylesheet per release, linked by the shell: the plugin's own CSS injection misses in the host.
        cssCodeSplit: false,
        // esbuild, not Vite 8's default (Oxc): the federation plugin cannot rewrite the entry Oxc writes
        // (docs/dependencies.md).
        minify: 'esbuild',
        modulePreload: false,
        // The federation entry is emitted by the plugin; an exposed module given as input would be merged into it.
        rollupOptions: { input: fileURLToPath(new URL('./emptyInput.ts', import.meta.url)), onwarn },
      },
    };
  };
}

/** Plugins for the host (shell). Remotes are not known at build time: the placeholder only satisfies the plugin,
 *  which otherwise fails at run time with "__rf_placeholder__shareScope is not defined"; real entries come from the
 *  manifest. The server build gets a stub of the plugin's virtual module: remotes there come from server entries. */
export function hostFederation({ ssr, root }: { ssr: boolean; root: string }): PluginOption[] {
  if (ssr) {
    const stubId = '\0federation-server-stub';
    return [
      react(),
      {
        name: 'federation-server-stub',
        resolveId: (id: string) => (id === '__federation__' ? stubId : null),
        load: (id: string) =>
          id === stubId
            ? 'const fail = () => { throw new Error("federation runs in the browser only"); };\n' +
              'export const __federation_method_setRemote = fail, __federation_method_getRemote = fail, __federation_method_unwrapDefault = fail;'
            : null,
      },
    ];
  }
  return [
    routerFacade(),
    react(),
    // No `shared` here: the plugin would turn each of the shell's imports of React into a top-level await of its
    // loader, each package a chunk of its own fetched after the entry. The shell registers them itself
    // (shell/src/remotes/shareScope.ts).
    federation({ name: 'shell', remotes: { placeholder: 'data:text/javascript,' } }),
    hostSharedPackages(root),
  ];
}

/** The build-time constant shell/src/remotes/shareScope.ts reads: the version of each shared package installed for
 *  the package at `root` (the versions the share scope announces, checked by each remote against its ranges). */
export function sharedVersionsDefine(root: string): Record<string, string> {
  return { __SHARED_VERSIONS__: JSON.stringify(installedSharedVersions(join(root, 'package.json'))) };
}

/**
 * The shared packages as the host provides them: the versions installed for the shell, for the share scope, and the
 * packages in one vendor chunk beside the shell's entry (the shell's releases change its own code more often than
 * them, and a returning visitor keeps that chunk). zustand is there too although only the directory's code uses it:
 * 0.3 kB on other pages, one request fewer on the directory's.
 */
function hostSharedPackages(root: string): Plugin {
  const pkgDir = (name: string) => `[\\/]node_modules[\\/]${name.replace(/[.-]/g, '\\$&')}[\\/]`;
  const vendor = ['react', 'react-dom', 'scheduler', 'react-router', 'react-router-dom', 'zustand'];
  return {
    name: 'host-shared-packages',
    // After the federation plugin, which sets a `manualChunks` of its own (for remotes' shared packages): the bundler
    // would ignore it beside `codeSplitting`, and say so at every build.
    enforce: 'post',
    config: () => ({ define: sharedVersionsDefine(root) }),
    outputOptions(output) {
      delete output.manualChunks;
      output.codeSplitting = {
        groups: [{ name: 'vendor', test: new RegExp(`${vendor.map(pkgDir).join('|')}|${ROUTER_FACADE_TEST}`) }],
      };
      return output;
    },
  };
}
