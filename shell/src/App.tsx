import { Outlet, useLocation } from 'react-router-dom';
import { CONTENT_ID } from '@aitools/platform';
import { ThemeProvider } from './theme/ThemeProvider';
import { TopBar } from './layout/TopBar';
import { Footer } from './layout/Footer';
import { ScrollManager } from './layout/ScrollManager';
import { RouteAnnouncer } from './layout/RouteAnnouncer';
import { NavigationProgress } from './layout/NavigationProgress';
import { PageOrPending } from './remotes/PageOrPending';
import { ErrorBoundary, GlobalErrorScreen, RouterErrorScreen } from './screens/ErrorScreens';
import './styles/global.css';

function Frame() {
  const { pathname } = useLocation();
  return (
    <div className="app">
      <ScrollManager />
      <RouteAnnouncer />
      <NavigationProgress />
      <TopBar />
      {/* Focusable by script (tabIndex -1): the target of the skip link, Back to top and a move to another page. */}
      <div id={CONTENT_ID} className="app__content" tabIndex={-1}>
        <ErrorBoundary resetKey={pathname} fallback={(error) => <RouterErrorScreen error={error} />}>
          <PageOrPending>
            <Outlet />
          </PageOrPending>
        </ErrorBoundary>
      </div>
      <Footer />
    </div>
  );
}

/** The shell's frame around every route, the same on the server and in the browser (the root route's element). */
export function App() {
  return (
    <ErrorBoundary fallback={() => <GlobalErrorScreen />}>
      <ThemeProvider>
        <Frame />
      </ThemeProvider>
    </ErrorBoundary>
  );
}
