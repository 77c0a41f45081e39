/**
 * Routes of the console (under /app). Signed-out pages: sign-in, register, forgot/reset password,
 * accept an invitation. Signed-in pages sit in the layout with the navigation; a page the user's
 * role cannot read is not in the navigation, and its write buttons are hidden (the API refuses
 * them anyway).
 */
import { useEffect, useState } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router-dom';
import { currentSession, onSessionChange, type Session } from './api/session';
import { Layout } from './components/layout';
import { AcceptInvitePage, ForgotPasswordPage, RegisterPage, ResetPasswordPage, SignInPage } from './pages/auth.pages';
import { LeadsPage } from './pages/leads.page';
import { LeadDetailPage } from './pages/lead-detail.page';
import { VendorsPage } from './pages/vendors.page';
import { ApiKeysPage } from './pages/api-keys.page';
import { FunnelPage } from './pages/funnel.page';
import { AnalyticsPage } from './pages/analytics.page';
import { RulesPage } from './pages/rules.page';
import { CustomFieldsPage } from './pages/custom-fields.page';
import { DedupPage } from './pages/dedup.page';
import { UsersPage } from './pages/users.page';
import { ValidationRulesPage } from './pages/validation-rules.page';
import { LookupTablesPage } from './pages/lookup-tables.page';
import { CalculatedFieldsPage } from './pages/calculated-fields.page';
import { OrganizationPage } from './pages/organization.page';
import { AccountPage } from './pages/account.page';
import { WebhooksPage } from './pages/webhooks.page';
import { CrmPage } from './pages/crm.page';
import { RoutingPage } from './pages/routing.page';
import { CapsPage } from './pages/caps.page';
import { SuppressionListsPage } from './pages/suppression-lists.page';
import { ReviewPage } from './pages/review.page';

export function useSession(): Session | null {
  const [session, setSession] = useState(currentSession());
  useEffect(() => onSessionChange(setSession), []);
  return session;
}

export function App() {
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  // When the session ends (sign-out, expired token), go to sign-in and come back afterwards.
  useEffect(() => {
    if (!session && !PUBLIC_PATHS.includes(location.pathname)) {
      void navigate('/sign-in', { replace: true, state: { from: location.pathname + location.search } });
    }
  }, [session]);

  if (!session) {
    return (
      <Routes>
        <Route path="/sign-in" element={<SignInPage />} />
        <Route path="/register" element={<RegisterPage />} />
        <Route path="/forgot-password" element={<ForgotPasswordPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/accept-invite" element={<AcceptInvitePage />} />
        <Route
          path="*"
          element={<Navigate to="/sign-in" replace state={{ from: location.pathname + location.search }} />}
        />
      </Routes>
    );
  }
  return (
    <Routes>
      <Route element={<Layout session={session} />}>
        <Route index element={<Navigate to="/leads" replace />} />
        <Route path="/leads" element={<LeadsPage />} />
        <Route path="/leads/:id" element={<LeadDetailPage />} />
        <Route path="/review" element={<ReviewPage />} />
        <Route path="/funnel" element={<FunnelPage />} />
        <Route path="/analytics" element={<AnalyticsPage />} />
        <Route path="/vendors" element={<VendorsPage />} />
        <Route path="/api-keys" element={<ApiKeysPage />} />
        <Route path="/rules" element={<RulesPage />} />
        <Route path="/custom-fields" element={<CustomFieldsPage />} />
        <Route path="/validation-rules" element={<ValidationRulesPage />} />
        <Route path="/lookup-tables" element={<LookupTablesPage />} />
        <Route path="/calculated-fields" element={<CalculatedFieldsPage />} />
        <Route path="/dedup" element={<DedupPage />} />
        <Route path="/suppression-lists" element={<SuppressionListsPage />} />
        <Route path="/routing" element={<RoutingPage />} />
        <Route path="/caps" element={<CapsPage />} />
        <Route path="/crm" element={<CrmPage />} />
        <Route path="/webhooks" element={<WebhooksPage />} />
        <Route path="/users" element={<UsersPage />} />
        <Route path="/organization" element={<OrganizationPage />} />
        <Route path="/account" element={<AccountPage />} />
        <Route path="*" element={<NotFound />} />
      </Route>
      {/* Signed in already: the signed-out pages lead to the console. */}
      <Route path="/sign-in" element={<Navigate to="/leads" replace />} />
      <Route path="/register" element={<Navigate to="/leads" replace />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="/accept-invite" element={<AcceptInvitePage />} />
    </Routes>
  );
}

const PUBLIC_PATHS = ['/sign-in', '/register', '/forgot-password', '/reset-password', '/accept-invite'];

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>There is no console page at this address.</p>
    </section>
  );
}
