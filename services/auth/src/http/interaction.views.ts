import { grantsWrites, type ConsentSection } from '../domain/oauth-consent-summary.js';
import { escapeHtml as e, page } from '../domain/oidc-error-page.js';

export interface LoginView {
  uid: string;
  csrf: string;
  clientName: string;
  email?: string;
  error?: string;
  teams?: { id: number; name: string }[];
}

export interface ConsentView {
  uid: string;
  csrf: string;
  clientName: string;
  userName: string;
  teamName: string;
  /** Where the browser goes after approval (host of the redirect URI). */
  redirectHost: string;
  /** Registered by anyone through dynamic registration: nobody vouches for the name. */
  unverified: boolean;
  sections: ConsentSection[];
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
${alert(v.error)}
<form method="post" action="/interaction/${e(v.uid)}/login" autocomplete="on">${hidden(v.csrf)}
<label for="email">Email</label><input id="email" name="email" type="email" required autofocus value="${e(v.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" required autocomplete="current-password">
${teamSelect}<button type="submit" id="sign-in">Sign in</button></form>
<form method="post" action="/interaction/${e(v.uid)}/abort">${hidden(v.csrf)}<button type="submit" id="cancel">Cancel</button></form>`,
  );
}

export function consentPage(v: ConsentView): string {
  const sections = v.sections
    .map(
      (s) =>
        `<h2>${e(s.title)}</h2><ul class="scopes">${s.lines
          .map((l) => `<li>${e(l.text)} <small>(${l.scopes.map((x) => `<code>${e(x)}</code>`).join(', ')})</small></li>`)
          .join('')}</ul>`,
    )
    .join('');
  const badge = v.unverified
    ? `<p class="warning" id="unverified"><strong>Unverified third-party application.</strong> Anyone can register an application under any name; Firewatch has not checked who is behind "${e(v.clientName)}". Approve only if you started this sign-in from an application you trust.</p>`
    : '';
  const writes = grantsWrites(v.sections) ? '<p id="writes">It will be able to <strong>change</strong> data, not only read it.</p>' : '';
  return page(
    'Authorize',
    `<h1>Authorize ${e(v.clientName)}</h1>${badge}
<p>Signed in as <strong id="user-name">${e(v.userName)}</strong> (team ${e(v.teamName)}).</p>
<p>After you approve, your browser goes to <strong id="redirect-host">${e(v.redirectHost)}</strong>.</p>
<p><strong id="client-name">${e(v.clientName)}</strong> asks to:</p><div id="scopes">${sections}</div>${writes}
<p>It will act with your role and never beyond it. Approving binds the application to your team.</p>
<form method="post" action="/interaction/${e(v.uid)}/confirm">${hidden(v.csrf)}
<button type="submit" name="decision" value="approve" id="approve">Approve</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button></form>`,
  );
}

export function messagePage(title: string, message: string): string {
  return page(title, `<h1>${e(title)}</h1>${alert(message)}<p>Return to the application and start again.</p>`);
}
