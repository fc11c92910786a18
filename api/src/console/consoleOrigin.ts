/**
 * Where the running site serves its console, for the links the operator commands print (`pnpm console invite`,
 * `recover`): the server records its console origin at start-up beside its database (a SQLite file's folder, or
 * api/var for Postgres, keyed by the database), so a command run in another shell, without the server's settings,
 * still prints a link that opens (docs/operations.md, The console).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ServerConfig } from '../config';
import { isPostgresUrl } from '../db/connection';
import { VAR_DIR } from '../paths';

/** The file that holds the console origin of the site that uses `database`. */
export function consoleOriginFile(database: string): string {
  if (!isPostgresUrl(database)) return `${database}.console-origin`;
  const key = createHash('sha256').update(database, 'utf8').digest('hex').slice(0, 16);
  return join(VAR_DIR, `console-origin-${key}`);
}

/** Called once the console listens. An in-memory database has no file to sit beside. */
export function recordConsoleOrigin(config: Pick<ServerConfig, 'database' | 'console'>): void {
  if (config.database === ':memory:') return;
  const file = consoleOriginFile(config.database);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${config.console.origin}\n`);
}

/**
 * The origin an invitation link is made on: CONSOLE_ORIGIN (or CONSOLE_PORT) when this command was given one, else
 * the one the running site recorded for this database; with neither, the default, with a note saying which
 * setting to give.
 */
export function linkOrigin(
  config: Pick<ServerConfig, 'database' | 'console'>,
  env: NodeJS.ProcessEnv,
): { origin: string; note?: string } {
  if (env.CONSOLE_ORIGIN || env.CONSOLE_PORT) return { origin: config.console.origin };
  let recorded = '';
  try {
    recorded = readFileSync(consoleOriginFile(config.database), 'utf8').trim();
  } catch {
    /* no site has started its console on this database */
  }
  if (URL.canParse(recorded)) return { origin: new URL(recorded).origin };
  return {
    origin: config.console.origin,
    note:
      `No site using this database has recorded its console's address, and CONSOLE_ORIGIN is not set: this link ` +
      `assumes ${config.console.origin}. If the console is served elsewhere, run the command again with ` +
      `CONSOLE_ORIGIN set to the console's origin (the CONSOLE_ORIGIN, or http://localhost:<CONSOLE_PORT>, the server ` +
      `was started with).`,
  };
}
