import { join, resolve } from 'node:path';
import { VAR_DIR } from './paths';

/** Everything the server reads from the environment, in one place. */
export interface ServerConfig {
  port: number;
  databasePath: string;
  releasesDir: string;
  /** Public origin for canonical links (forced to https in links). */
  siteOrigin: string;
  /** Base URL of the API for the browser; '' = same origin. */
  apiBase: string;
  contactEmail: string;
  analyticsEndpoint?: string;
  /** Optional email-marketing subscribe endpoint; early-access signups are forwarded there too. */
  emailMarketingUrl?: string;
  /** SPEC section 6: development server for /api/auth, /api/admin, /api/contact (unset: same API). */
  devAuthServer?: string;
  /** Remotes served from their package's dist/ (a watch build) instead of the manifest's release. */
  devRemotes: string[];
  /** Write requests allowed per client address per minute. */
  writeRateLimit: number;
  logLevel: string;
  isProduction: boolean;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080);
  // Relative paths mean: from where the operator ran the command (pnpm runs scripts in the package folder).
  const path = (value: string | undefined, fallback: string) => (value ? resolve(env.INIT_CWD ?? process.cwd(), value) : fallback);
  return {
    port,
    databasePath: env.DATABASE_PATH === ':memory:' ? ':memory:' : path(env.DATABASE_PATH, join(VAR_DIR, 'data', 'site.sqlite')),
    releasesDir: path(env.RELEASES_DIR, join(VAR_DIR, 'releases')),
    siteOrigin: env.SITE_ORIGIN ?? `https://localhost:${port}`,
    apiBase: env.API_BASE ?? '',
    contactEmail: env.CONTACT_EMAIL ?? 'hello@aitoolsdirectory.example',
    // Our own API is the analytics service by default; an empty ANALYTICS_ENDPOINT turns events off.
    analyticsEndpoint: env.ANALYTICS_ENDPOINT === undefined ? '/api/events' : env.ANALYTICS_ENDPOINT || undefined,
    emailMarketingUrl: env.EMAIL_MARKETING_URL || undefined,
    devAuthServer: env.DEV_AUTH_SERVER || undefined,
    devRemotes: (env.DEV_REMOTES ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    writeRateLimit: Number(env.WRITE_RATE_LIMIT ?? 20),
    logLevel: env.LOG_LEVEL ?? (env.NODE_ENV === 'test' ? 'silent' : 'info'),
    isProduction: env.NODE_ENV === 'production',
  };
}
