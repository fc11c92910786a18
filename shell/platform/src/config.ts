import { globalSingleton } from './singleton';

/** Run-time configuration the server writes into the page (window.__APP_CONFIG__); same origin by default. */
export interface AppConfig {
  /** Base URL of the API; '' means the site's own origin. */
  apiBase: string;
  /** Development only: where /api/auth, /api/admin and /api/contact go (SPEC section 6). */
  devAuthServer?: string;
  /** Optional analytics endpoint; events are skipped when absent. */
  analyticsEndpoint?: string;
  /** The public origin used for canonical links. */
  siteOrigin: string;
  /** The shared contact address. */
  contactEmail: string;
}

const DEFAULT_CONFIG: AppConfig = {
  apiBase: '',
  siteOrigin: 'https://localhost',
  contactEmail: 'hello@aitoolsdirectory.example',
};

export const configStore = globalSingleton('config', () => ({ current: { ...DEFAULT_CONFIG } as AppConfig }));

export function getConfig(): AppConfig {
  if (typeof window !== 'undefined') {
    const w = window as unknown as { __APP_CONFIG__?: Partial<AppConfig> };
    if (w.__APP_CONFIG__) return { ...DEFAULT_CONFIG, ...w.__APP_CONFIG__ };
  }
  return configStore.current;
}

const DEV_SERVER_PREFIXES = ['/api/auth', '/api/admin', '/api/contact'];

/** SPEC section 6: auth/admin/contact paths go to the development server when one is configured;
 *  everything else to the configured API base or the site's own origin. */
export function resolveApiUrl(path: string, config: Pick<AppConfig, 'apiBase' | 'devAuthServer'>): string {
  if (config.devAuthServer && DEV_SERVER_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))) {
    return `${config.devAuthServer.replace(/\/+$/, '')}${path}`;
  }
  return `${config.apiBase.replace(/\/+$/, '')}${path}`;
}
