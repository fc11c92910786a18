/**
 * The monolith's stand-in for the federation plugin's virtual module: the same shell code (shell/src/main.tsx) loads
 * each remote's exposed route module, but from this build, code-split per route, with no federation runtime and no
 * shared-module chunks. Used only by the benchmark, to price federation in bytes and in Lighthouse.
 */
const EXPOSED: Record<string, Record<string, () => Promise<unknown>>> = {
  directory: {
    './Home': () => import('../../mfe-directory/src/routes/Home'),
    './ToolDetail': () => import('../../mfe-directory/src/routes/ToolDetail'),
  },
  blog: {
    './BlogList': () => import('../../mfe-blog/src/routes/BlogList'),
    './BlogPost': () => import('../../mfe-blog/src/routes/BlogPost'),
  },
  forms: {
    './Submit': () => import('../../mfe-forms/src/routes/Submit'),
    './Contact': () => import('../../mfe-forms/src/routes/Contact'),
    './Advertise': () => import('../../mfe-forms/src/routes/Advertise'),
  },
  legal: {
    './Privacy': () => import('../../mfe-legal/src/routes/Privacy'),
    './Terms': () => import('../../mfe-legal/src/routes/Terms'),
    './Cookies': () => import('../../mfe-legal/src/routes/Cookies'),
  },
};

export function __federation_method_setRemote(): void {}

export function __federation_method_getRemote(remote: string, exposed: string): Promise<unknown> {
  const load = EXPOSED[remote]?.[exposed];
  return load ? load() : Promise.reject(new Error(`monolith: no ${remote} ${exposed}`));
}

export function __federation_method_unwrapDefault(mod: unknown): unknown {
  return (mod as { default?: unknown } | null)?.default ?? mod;
}
