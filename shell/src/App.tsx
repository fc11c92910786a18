import { useLocation } from 'react-router-dom';
import { ThemeProvider } from './theme/ThemeProvider';
import { TopBar } from './layout/TopBar';
import { Footer } from './layout/Footer';
import { ScrollManager } from './layout/ScrollManager';
import { AppRoutes } from './routes';
import { ErrorBoundary, GlobalErrorScreen, RouterErrorScreen } from './screens/ErrorScreens';
import './styles/global.css';

function Frame() {
  const { pathname } = useLocation();
  return (
    <div className="app">
      <ScrollManager />
      <TopBar />
      <div id="main-content" className="app__content">
        <ErrorBoundary resetKey={pathname} fallback={(error) => <RouterErrorScreen error={error} />}>
          <AppRoutes />
        </ErrorBoundary>
      </div>
      <Footer />
    </div>
  );
}

/** The shell's tree, the same on the server and in the browser; the router is given by the entry. */
export function App() {
  return (
    <ErrorBoundary fallback={() => <GlobalErrorScreen />}>
      <ThemeProvider>
        <Frame />
      </ThemeProvider>
    </ErrorBoundary>
  );
}
