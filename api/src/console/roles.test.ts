/**
 * Every console endpoint against every role: a role that may not call it gets 403 (and signed-out callers 401),
 * a role that may is never refused for its role. The server's check, whatever the browser app shows.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInPerson, startConsoleTest, type ConsoleBrowser, type ConsoleTest } from '../../test/consoleHarness';
import { may, type Role } from './roles';

let t: ConsoleTest;
const browsers = new Map<string, ConsoleBrowser>();

const ROLES: Record<string, Role[]> = {
  viewer: [{ role: 'viewer' }],
  moderator: [{ role: 'moderator' }],
  editor: [{ role: 'editor' }],
  'release-manager(blog)': [{ role: 'release-manager', remotes: ['blog'] }],
  admin: [{ role: 'admin' }],
};

type Who = 'any' | 'moderator' | 'editor' | 'admin' | 'editor-or-admin' | 'release-manager(blog)' | 'nobody';
/** Method, path, who may call it. Bodies are empty: a permitted caller gets 400/404/409, never 403. */
const ENDPOINTS: [string, string, Who][] = [
  ['GET', '/api/dashboard', 'any'],
  ['GET', '/api/health', 'any'],
  ['GET', '/api/submissions', 'any'],
  ['GET', '/api/contacts', 'any'],
  ['GET', '/api/waitlist', 'any'],
  ['GET', '/api/releases', 'any'],
  ['GET', '/api/releases/blog/series', 'any'],
  ['GET', '/api/releases/directory/series', 'any'],
  ['POST', '/api/submissions/approve', 'moderator'],
  ['POST', '/api/submissions/reject', 'moderator'],
  ['GET', '/api/contacts.csv', 'moderator'],
  ['GET', '/api/waitlist.csv', 'moderator'],
  ['GET', '/api/checks', 'any'],
  ['POST', '/api/checks/dismiss', 'moderator'],
  ['POST', '/api/checks/review', 'moderator'],
  ...(['canary', 'promote', 'abort', 'rollback'] as const).flatMap((a): [string, string, Who][] => [
    ['POST', `/api/releases/blog/${a}`, 'release-manager(blog)'],
    ['POST', `/api/releases/directory/${a}`, 'nobody'],
    ['POST', `/api/releases/legal/${a}`, 'nobody'],
  ]),
  ['GET', '/api/tools', 'editor'],
  ['GET', '/api/tools/no-such-tool', 'editor'],
  ['POST', '/api/tools/no-such-tool', 'editor'],
  ['POST', '/api/tools/no-such-tool/hide', 'editor'],
  ['POST', '/api/tools/no-such-tool/unhide', 'editor'],
  ['GET', '/api/tools/no-such-tool/versions', 'editor'],
  ['GET', '/api/tools/no-such-tool/versions/1', 'editor'],
  ['GET', '/api/tools/no-such-tool/versions/1/diff', 'editor'],
  ['POST', '/api/tools/no-such-tool/versions/1/restore', 'editor'],
  ['GET', '/api/taxonomy', 'editor'],
  ['POST', '/api/taxonomy/preview', 'editor'],
  ['POST', '/api/taxonomy/rename', 'editor'],
  ['GET', '/api/tokens', 'admin'],
  ['POST', '/api/tokens', 'admin'],
  ['POST', '/api/tokens/no-such-token/revoke', 'admin'],
  ['GET', '/api/people', 'admin'],
  ['POST', '/api/invitations', 'admin'],
  ['POST', '/api/people/99999/roles', 'admin'],
  ['POST', '/api/people/99999/disable', 'admin'],
  ['POST', '/api/people/99999/enable', 'admin'],
  ['POST', '/api/people/99999/invitation', 'admin'],
  ['GET', '/api/audit', 'admin'],
  ['GET', '/api/posts', 'editor'],
  ['POST', '/api/posts', 'editor'],
  ['POST', '/api/posts/preview', 'editor'],
  ['GET', '/api/posts/no-such-post', 'editor'],
  ['POST', '/api/posts/no-such-post', 'editor'],
  ['GET', '/api/posts/no-such-post/versions', 'editor'],
  ['GET', '/api/posts/no-such-post/versions/1', 'editor'],
  ['GET', '/api/posts/no-such-post/versions/1/diff', 'editor'],
  ['GET', '/api/posts/no-such-post/cover.png', 'editor'],
  ['GET', '/api/posts/no-such-post/cover.webp', 'editor'],
  ['POST', '/api/posts/no-such-post/versions/1/restore', 'editor'],
  ['POST', '/api/posts/no-such-post/preview-link', 'editor'],
  ['GET', '/api/jobs', 'editor-or-admin'],
  ['POST', '/api/jobs/no-such-job/run', 'editor-or-admin'],
  ['GET', '/api/upstreams', 'admin'],
  ['POST', '/api/upstreams', 'admin'],
  ['POST', '/api/upstreams/99999', 'admin'],
  ['POST', '/api/upstreams/99999/remove', 'admin'],
  ['POST', '/api/upstreams/99999/sync', 'admin'],
  ['GET', '/api/auth/me', 'any'],
  ['GET', '/api/auth/passkeys', 'any'],
  ['POST', '/api/auth/passkeys/add/options', 'any'],
  ['POST', '/api/auth/passkeys/add/verify', 'any'],
  ['POST', '/api/auth/passkeys/no-such-key/delete', 'any'],
  ['POST', '/api/auth/logout-everywhere', 'any'],
];

const mayCall = (who: Who, role: string) =>
  who === 'any' || who === role || (who === 'editor-or-admin' && (role === 'editor' || role === 'admin'));

beforeAll(async () => {
  t = await startConsoleTest();
  for (const [name, roles] of Object.entries(ROLES))
    browsers.set(name, (await signedInPerson(t, `Table ${name}`, roles)).browser);
});
afterAll(() => t.close());

describe('every console endpoint checks the role on the server', () => {
  it.each(ENDPOINTS.filter(([, path]) => !path.endsWith('/logout-everywhere')))(
    '%s %s: signed out gets 401',
    async (method, path) => {
      const r = request(t.app.console)[method === 'GET' ? 'get' : 'post'](path);
      const res = await (method === 'GET' ? r : r.set('Origin', 'http://localhost:8081').send({}));
      expect(res.status).toBe(401);
    },
  );

  for (const role of Object.keys(ROLES))
    it.each(ENDPOINTS.filter(([, path]) => !path.endsWith('/logout-everywhere')))(
      `${role}: %s %s`,
      async (method, path, who) => {
        const browser = browsers.get(role)!;
        const res = method === 'GET' ? await browser.get(path) : await browser.post(path, {});
        if (mayCall(who, role)) expect(res.status, JSON.stringify(res.body)).not.toBe(403);
        else expect(res.status, JSON.stringify(res.body)).toBe(403);
        expect(res.status).toBeLessThan(500);
      },
    );

  it('the table names every endpoint of the console (a new one without a row fails here)', () => {
    type Layer = { route?: { path: string; methods: Record<string, boolean> }; handle?: { stack?: Layer[] } };
    const found: string[] = [];
    const walk = (stack: Layer[], prefix: string) => {
      for (const layer of stack) {
        if (layer.route)
          for (const m of Object.keys(layer.route.methods))
            found.push(`${m.toUpperCase()} ${prefix}${layer.route.path}`);
        else if (layer.handle?.stack) {
          const isAuth = layer.handle.stack.some((l) => l.route?.path === '/login/options');
          walk(layer.handle.stack, prefix === '' ? '/api' : isAuth ? `${prefix}/auth` : prefix);
        }
      }
    };
    walk((t.app.console as unknown as { router: { stack: Layer[] } }).router.stack, '');
    // Signing in and out needs no session, so no role.
    const open = ['/invitation', '/register/options', '/register/verify', '/login/options', '/login/verify', '/logout'];
    const pattern = (path: string) =>
      path
        .replace(/^\/api\/releases\/\w+\//, '/api/releases/:remote/')
        .replace(/\/people\/\d+\//, '/people/:id/')
        .replace(/\/tools\/no-such-tool/, '/tools/:slug')
        .replace(/\/versions\/1(\/|$)/, '/versions/:v$1')
        .replace(/\/tokens\/[\w-]+\/revoke$/, '/tokens/:label/revoke')
        .replace(/\/passkeys\/no-such-key\//, '/passkeys/:id/')
        .replace(/\/posts\/no-such-post/, '/posts/:slug')
        .replace(/\/jobs\/no-such-job\//, '/jobs/:name/')
        .replace(/\/upstreams\/\d+(\/|$)/, '/upstreams/:id$1')
        .replace(/\/cover\.(png|webp)$/, '/cover.:format')
        .replace(/\/revisions\/\d+$/, '/revisions/:version');
    const tabled = new Set(ENDPOINTS.map(([m, path]) => `${m} ${pattern(path)}`));
    const missing = found.filter(
      (e) => e.includes(' /api/') && !tabled.has(e) && !open.some((o) => e.endsWith(`/api/auth${o}`)),
    );
    expect(found.length).toBeGreaterThan(30);
    expect(missing).toEqual([]);
  });

  it('the role rules themselves: reading needs any role; a release manager only their remotes', () => {
    expect(may([], 'read')).toBe(false);
    expect(may([{ role: 'viewer' }], 'moderate')).toBe(false);
    expect(may([{ role: 'admin' }], 'release', 'blog')).toBe(false);
    expect(may([{ role: 'release-manager', remotes: ['blog'] }], 'release', 'directory')).toBe(false);
    expect(may([{ role: 'release-manager', remotes: ['blog'] }], 'release')).toBe(false);
    expect(may([{ role: 'viewer' }, { role: 'release-manager', remotes: ['blog'] }], 'release', 'blog')).toBe(true);
  });
});
