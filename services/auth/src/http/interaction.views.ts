import { escapeHtml as e, page } from '../domain/oidc-error-page.js';

export interface LoginView {
  uid: string;
  csrf: string;
  clientName: string;
  email?: string;
  error?: string;
  notice?: string;
  teams?: { id: number; name: string }[];
}

export interface ConsentView {
  uid: string;
  csrf: string;
  clientName: string;
  userName: string;
  teamName: string;
  scopes: { scope: string; label: string }[];
}

const hidden = (csrf: string) => `<input type="hidden" name="csrf" value="${e(csrf)}">`;
const alert = (text?: string) => (text ? `<p class="error" role="alert" id="error">${e(text)}</p>` : '');

export function loginPage(v: LoginView): string {
  const teamSelect = v.teams?.length
    ? `<label for="team_id">Team</label><select id="team_id" name="team_id">${v.teams
        .map((t) => `<option value="${t.id}">${e(t.name)}</option>`)
        .join('')}</select>`
    : '';
  return page(
    'Sign in',
    `<h1>Sign in to Firewatch</h1>
<p><strong id="client-name">${e(v.clientName)}</strong> wants to access Firewatch on your behalf.</p>
${v.notice ? `<p id="notice">${e(v.notice)}</p>` : ''}${alert(v.error)}
<form method="post" action="/interaction/${e(v.uid)}/login" autocomplete="on">${hidden(v.csrf)}
<label for="email">Email</label><input id="email" name="email" type="email" required autofocus value="${e(v.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" required autocomplete="current-password">
${teamSelect}<button type="submit" id="sign-in">Sign in</button></form>
<form method="post" action="/interaction/${e(v.uid)}/abort">${hidden(v.csrf)}<button type="submit" id="cancel">Cancel</button></form>`,
  );
}

export function consentPage(v: ConsentView): string {
  const items = v.scopes.map((s) => `<li><code>${e(s.scope)}</code> — ${e(s.label)}</li>`).join('');
  return page(
    'Authorize',
    `<h1>Authorize ${e(v.clientName)}</h1>
<p>Signed in as <strong id="user-name">${e(v.userName)}</strong> (team ${e(v.teamName)}).</p>
<p><strong id="client-name">${e(v.clientName)}</strong> asks for:</p><ul class="scopes" id="scopes">${items}</ul>
<p>It will act with your role and never beyond it. Approving binds the application to your team.</p>
<form method="post" action="/interaction/${e(v.uid)}/confirm">${hidden(v.csrf)}
<button type="submit" name="decision" value="approve" id="approve">Approve</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button></form>`,
  );
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${e(title)}</h1>${alert(message)}<p>Return to the application and start again.</p>`);
}

const OIDC_LABELS: Record<string, string> = {
  openid: 'know who you are (your user id)',
  profile: 'see your name, team and roles',
  email: 'see your email address',
  offline_access: 'stay signed in (refresh tokens)',
};

/** A human label for a scope shown on the consent page. */
export function scopeLabel(scope: string): string {
  if (OIDC_LABELS[scope]) return OIDC_LABELS[scope];
  if (scope === 'all') return 'everything your role allows';
  if (scope === 'ir.all' || scope === 'oc.all') return `everything your role allows on the ${scope.startsWith('ir') ? 'incident' : 'on-call'} side`;
  const m = /^(ir|oc)\.([a-z_]+):(read|write)$/.exec(scope);
  if (!m) return scope;
  return `${m[3] === 'read' ? 'read' : 'read and change'} ${m[2].replace(/_/g, ' ')}`;
}
