/**
 * The page's code starts after its first paint (shell/src/remotes/pageCode.ts). The shell's built page names its
 * entry module (and any preloads); they are taken out of it once, and each page lists them, with its route's
 * modules, in one JSON element that the shell's boot script reads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { serializeJsonForScript } from '@aitools/platform/head-tags';

const SHELL_MODULE =
  /\s*<script type="module"(?: crossorigin)? src="(\/assets\/[\w.-]+\.js)"><\/script>|\s*<link rel="modulepreload"(?: crossorigin)? href="(\/assets\/[\w.-]+\.js)">/g;

/** The shell's page without its module elements, and their addresses: the entry first. */
export function takeShellModules(template: string): { template: string; modules: string[] } {
  let entry: string | undefined;
  const preloads: string[] = [];
  const out = template.replace(SHELL_MODULE, (_, script?: string, preload?: string) => {
    if (script) entry = script;
    else if (preload) preloads.push(preload);
    return '';
  });
  if (!entry) throw new Error("The shell's built page has no entry module: rebuild the shell (`npm run build`).");
  return { template: out, modules: [entry, ...preloads] };
}

/** A chunk of a Vite build manifest (`build.manifest`). */
export interface ManifestChunk {
  file: string;
  name?: string;
  imports?: string[];
}

/** The files of these manifest chunks and of everything they import, each once, in the order first reached. */
export function manifestClosure(manifest: Record<string, ManifestChunk>, keys: Iterable<string>): string[] {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  for (const key of keys) visit(key);
  return [...files];
}

/** The shell's modules every page needs before its code runs, from the shell's build manifest: its entry and what it
 *  imports (its vendor chunk holds the shared packages, which remotes get from it). Listed with the entry, they come
 *  in one wave instead of a round trip per level of imports. */
export function shellStartupModules(manifest: Record<string, ManifestChunk>): string[] {
  return manifestClosure(manifest, ['index.html'])
    .filter((f) => f.endsWith('.js'))
    .map((f) => `/${f}`);
}

/** The shell's page without its module elements, and the modules every page starts with (the entry first): the
 *  build manifest adds the startup chunks (a build without one lists the entry alone). */
export function shellPageCode(template: string, manifestFile: string): { template: string; modules: string[] } {
  const taken = takeShellModules(template);
  const startup = existsSync(manifestFile)
    ? shellStartupModules(JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>)
    : [];
  return { template: taken.template, modules: [...new Set([...taken.modules, ...startup])] };
}

/** The JSON list of a page's code: the entry first, then the modules to preload. */
export function pageCodeList(id: string, modules: string[]): string {
  return `<script type="application/json" id="${id}">${serializeJsonForScript(modules)}</script>`;
}
