import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import { HeadContext, type Head, type HeadCollector } from '@aitools/platform';
import { App } from './App';
import { PageContext, type ServerRemote } from './remotes/pageState';
import type { RemoteManifest } from './remotes/manifest';

export { matchRoute } from './routeMatch';
export { themeBootScript } from './theme/themeRules';
export { parseManifest } from './remotes/manifest';
export { PAGE_STATE_ID } from './remotes/pageState';

export interface RenderInput {
  /** path + search */
  url: string;
  releases: RemoteManifest;
  /** The matched remote route's server component and data; absent for shell routes. */
  remote?: ServerRemote;
}

/** Renders the shell frame with the route's content; returns the markup and the head the route declared. */
export function render(input: RenderInput): { html: string; head: Head | null } {
  const collector: HeadCollector = { head: null };
  const html = renderToString(
    <HeadContext.Provider value={collector}>
      <PageContext.Provider value={{ releases: input.releases, takeInitialData: () => undefined, server: input.remote ?? { remote: '', module: '' } }}>
        <StaticRouter location={input.url}>
          <App />
        </StaticRouter>
      </PageContext.Provider>
    </HeadContext.Provider>,
  );
  return { html, head: collector.head };
}
