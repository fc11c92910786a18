/** The console's screens. Signed out, every address but an invitation shows the sign-in. */
import type { ReactNode } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { Layout } from './components/Layout';
import { Loading } from './components/Status';
import { can } from './roles';
import { useSession } from './session';
import type { Person } from './types';
import { AuditScreen } from './screens/Audit';
import { DashboardScreen } from './screens/Dashboard';
import { InboxScreen } from './screens/Inbox';
import { ChecksScreen } from './screens/Checks';
import { InviteScreen } from './screens/Invite';
import { PasskeysScreen } from './screens/Passkeys';
import { PeopleScreen } from './screens/People';
import { PostsScreen } from './screens/Posts';
import { PostEditorScreen } from './screens/PostEditor';
import { RegistryScreen } from './screens/Registry';
import { ReleasesScreen } from './screens/Releases';
import { SignInScreen } from './screens/SignIn';
import { SubmissionsScreen } from './screens/Submissions';
import { TaxonomyScreen } from './screens/Taxonomy';
import { ToolEditScreen } from './screens/ToolEdit';
import { ToolsScreen } from './screens/Tools';
import { TokensScreen } from './screens/Tokens';
import { UpstreamsScreen } from './screens/Upstreams';

function Guarded({ shown, children }: { shown?: (p: Person) => boolean; children: ReactNode }) {
  const { person } = useSession();
  const location = useLocation();
  if (person === undefined) return <Loading what="your session" />;
  if (person === null) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  return (
    <Layout>
      {shown && !shown(person) ? (
        <>
          <h1>Not available</h1>
          <p>Your roles do not include this section.</p>
        </>
      ) : (
        children
      )}
    </Layout>
  );
}

export function App() {
  return (
    <Routes>
      <Route path="/sign-in" element={<SignInScreen />} />
      <Route path="/invite/:token" element={<InviteScreen />} />
      <Route
        path="/"
        element={
          <Guarded>
            <DashboardScreen />
          </Guarded>
        }
      />
      <Route
        path="/submissions"
        element={
          <Guarded shown={can.readModeration}>
            <SubmissionsScreen />
          </Guarded>
        }
      />
      <Route
        path="/inbox"
        element={
          <Guarded shown={can.readModeration}>
            <InboxScreen />
          </Guarded>
        }
      />
      <Route
        path="/checks"
        element={
          <Guarded shown={can.readModeration}>
            <ChecksScreen />
          </Guarded>
        }
      />
      <Route
        path="/releases"
        element={
          <Guarded>
            <ReleasesScreen />
          </Guarded>
        }
      />
      <Route
        path="/registry"
        element={
          <Guarded shown={can.runJobs}>
            <RegistryScreen />
          </Guarded>
        }
      />
      <Route
        path="/tokens"
        element={
          <Guarded shown={can.admin}>
            <TokensScreen />
          </Guarded>
        }
      />
      <Route
        path="/upstreams"
        element={
          <Guarded shown={can.admin}>
            <UpstreamsScreen />
          </Guarded>
        }
      />
      <Route
        path="/people"
        element={
          <Guarded shown={can.admin}>
            <PeopleScreen />
          </Guarded>
        }
      />
      <Route
        path="/audit"
        element={
          <Guarded shown={can.admin}>
            <AuditScreen />
          </Guarded>
        }
      />
      <Route
        path="/posts"
        element={
          <Guarded shown={can.edit}>
            <PostsScreen />
          </Guarded>
        }
      />
      {(
        [
          ['/tools', <ToolsScreen />],
          ['/tools/:slug', <ToolEditScreen />],
          ['/taxonomy', <TaxonomyScreen />],
        ] as const
      ).map(([path, screen]) => (
        <Route key={path} path={path} element={<Guarded shown={can.edit}>{screen}</Guarded>} />
      ))}
      <Route
        path="/posts/new"
        element={
          <Guarded shown={can.edit}>
            <PostEditorScreen />
          </Guarded>
        }
      />
      <Route
        path="/posts/:slug"
        element={
          <Guarded shown={can.edit}>
            <PostEditorScreen />
          </Guarded>
        }
      />
      <Route
        path="/passkeys"
        element={
          <Guarded>
            <PasskeysScreen />
          </Guarded>
        }
      />
      <Route
        path="*"
        element={
          <Guarded>
            <h1>Not found</h1>
            <p>There is no console page at this address.</p>
          </Guarded>
        }
      />
    </Routes>
  );
}
