// The types of `@aitools/shell/server` (the shell's server build, dist/server/entry-server.js): its default export
// is the ShellServer contract, which entry-server.tsx is checked against.
import type { ShellServer } from './serverContract';

export type * from './serverContract';
declare const shellServer: ShellServer;
export default shellServer;
