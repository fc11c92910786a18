import { hydrateRoot, createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { browserPageContext, PageContext, PAGE_STATE_ID, type PageState } from './remotes/pageState';
import { parseManifest } from './remotes/manifest';

function readPageState(): PageState {
  const el = document.getElementById(PAGE_STATE_ID);
  const raw = el?.textContent ? (JSON.parse(el.textContent) as Partial<PageState> & { config?: object }) : {};
  // Run-time configuration for the platform SDK (getConfig) in the shell and every remote.
  if (raw.config) (window as unknown as { __APP_CONFIG__?: object }).__APP_CONFIG__ = raw.config;
  return { url: raw.url ?? '', releases: parseManifest(raw.releases), data: raw.data };
}

async function start() {
  let state = readPageState();
  // A page without inlined releases (e.g. opened from a static file) asks the server for the manifest.
  if (Object.keys(state.releases).length === 0) {
    try {
      const res = await fetch('/remotes.json', { cache: 'no-store' });
      state = { ...state, releases: parseManifest(await res.json()) };
    } catch (err) {
      console.error('Could not load the remotes manifest', err);
    }
  }
  const tree = (
    <PageContext.Provider value={browserPageContext(state)}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </PageContext.Provider>
  );
  const root = document.getElementById('root')!;
  if (root.hasChildNodes()) hydrateRoot(root, tree);
  else createRoot(root).render(tree);
}

void start();
