/**
 * The operator console's people and roles, as the api sends them (api/src/console) and the console reads them
 * (docs/operations.md, The console). Types only: the api's roles.ts holds the schema and what each role may do.
 */

/** Where an invitation (or recovery) link opens the console: `<console origin>/invite/<token>`. The request log
 *  redacts the token after it (api/src/middleware/logger.ts). */
export const INVITE_PATH = '/invite/';

export type PlainRole = 'viewer' | 'moderator' | 'editor' | 'admin';
export type Role = { role: PlainRole } | { role: 'release-manager'; remotes: string[] };
export type RoleName = Role['role'];

export interface Person {
  id: number;
  name: string;
  email?: string;
  roles: Role[];
  disabled: boolean;
}
