import { remoteConfig } from '@aitools/platform/vite';

// Exposes the modules the route table (shell/platform/src/routeTable.ts) names for this remote.
export default remoteConfig({ name: 'directory', root: import.meta.dirname });
