// The pages and their paths (web/README.md lists them). Paths never start with an API prefix
// (/app/, /account/, /auth/, /media/): the service answers those with JSON. The pages a
// signed-out visitor needs load with the entry; the account and personal-data pages load
// when first opened. An app user's pages are at /data for one's own and under /data/users/:user
// for any the caller may see (their own or one shared with them); the same pages serve both.
import { ErrorBoundary, LocationProvider, lazy, Route, Router } from 'preact-iso';
import { Layout } from './components/layout.tsx';
import { AccountDeleted } from './pages/account-deleted.tsx';
import { ForgotPassword } from './pages/forgot-password.tsx';
import { Home } from './pages/home.tsx';
import { NotFound } from './pages/not-found.tsx';
import { PublicEmergency } from './pages/emergency/public-emergency.tsx';
import { ResetPassword } from './pages/reset-password.tsx';
import { ProviderSignIn } from './pages/provider-sign-in.tsx';
import { SignIn } from './pages/sign-in.tsx';
import { SignUp } from './pages/sign-up.tsx';
import { VerifyEmail } from './pages/verify-email.tsx';
import { StatusLineProvider } from './status-line.tsx';

const Account = lazy(() => import('./pages/settings/account.tsx').then((m) => m.Account));
const ChangePassword = lazy(() => import('./pages/settings/change-password.tsx').then((m) => m.ChangePassword));
const Sessions = lazy(() => import('./pages/settings/sessions.tsx').then((m) => m.Sessions));
const MfaSettings = lazy(() => import('./pages/settings/mfa.tsx').then((m) => m.MfaSettings));
const IdentitySettings = lazy(() => import('./pages/settings/identities.tsx').then((m) => m.IdentitySettings));
const PasskeySettings = lazy(() => import('./pages/settings/passkeys.tsx').then((m) => m.PasskeySettings));
const ExportAndDelete = lazy(() => import('./pages/settings/export-and-delete.tsx').then((m) => m.ExportAndDelete));
const EmergencyLinks = lazy(() => import('./pages/data/emergency-links.tsx').then((m) => m.EmergencyLinks));
const DataHome = lazy(() => import('./pages/data/data-home.tsx').then((m) => m.DataHome));
const ProfilePage = lazy(() => import('./pages/data/profile-page.tsx').then((m) => m.ProfilePage));
const TopicPage = lazy(() => import('./pages/data/topic-page.tsx').then((m) => m.TopicPage));
const Gallery = lazy(() => import('./pages/data/gallery.tsx').then((m) => m.Gallery));
const Emergency = lazy(() => import('./pages/data/emergency.tsx').then((m) => m.Emergency));
const Share = lazy(() => import('./pages/data/share.tsx').then((m) => m.Share));
const DataActivity = lazy(() => import('./pages/data/activity.tsx').then((m) => m.DataActivity));
const SecurityActivity = lazy(() => import('./pages/settings/activity.tsx').then((m) => m.SecurityActivity));
const DevMailPage = lazy(() => import('./pages/dev-mail.tsx').then((m) => m.DevMailPage));
const Shared = lazy(() => import('./pages/shared.tsx').then((m) => m.Shared));
const SignInWithCode = lazy(() => import('./pages/sign-in-code.tsx').then((m) => m.SignInWithCode));
const Admin = lazy(() => import('./pages/admin/admin.tsx').then((m) => m.Admin));

export function App() {
  return (
    <LocationProvider>
      <StatusLineProvider>
        <Layout>
          <ErrorBoundary>
            <Router>
              <Route path="/" component={Home} />
              <Route path="/sign-up" component={SignUp} />
              <Route path="/verify-email" component={VerifyEmail} />
              <Route path="/sign-in" component={SignIn} />
              <Route path="/sign-in/provider" component={ProviderSignIn} />
              <Route path="/sign-in/code" component={SignInWithCode} />
              <Route path="/forgot-password" component={ForgotPassword} />
              <Route path="/reset-password" component={ResetPassword} />
              <Route path="/account-deleted" component={AccountDeleted} />
              <Route path="/emergency/:token" component={PublicEmergency} />
              <Route path="/settings" component={Account} />
              <Route path="/settings/password" component={ChangePassword} />
              <Route path="/settings/sessions" component={Sessions} />
              <Route path="/settings/mfa" component={MfaSettings} />
              <Route path="/settings/passkeys" component={PasskeySettings} />
              <Route path="/settings/identities" component={IdentitySettings} />
              <Route path="/settings/activity" component={SecurityActivity} />
              <Route path="/settings/export-and-delete" component={ExportAndDelete} />
              <Route path="/data" component={DataHome} />
              <Route path="/data/profiles/:id" component={ProfilePage} />
              <Route path="/data/topics/:id" component={TopicPage} />
              <Route path="/data/gallery" component={Gallery} />
              <Route path="/data/emergency/links" component={EmergencyLinks} />
              <Route path="/data/emergency" component={Emergency} />
              <Route path="/data/share" component={Share} />
              <Route path="/data/activity" component={DataActivity} />
              <Route path="/data/users/:user" component={DataHome} />
              <Route path="/data/users/:user/profiles/:id" component={ProfilePage} />
              <Route path="/data/users/:user/topics/:id" component={TopicPage} />
              <Route path="/data/users/:user/gallery" component={Gallery} />
              <Route path="/data/users/:user/emergency" component={Emergency} />
              <Route path="/shared" component={Shared} />
              <Route path="/admin" component={Admin} />
              <Route path="/dev/mail" component={DevMailPage} />
              <Route default component={NotFound} />
            </Router>
          </ErrorBoundary>
        </Layout>
      </StatusLineProvider>
    </LocationProvider>
  );
}
