// Drives the authorization code flow's login and consent pages over plain HTTP, as a
// browser would (cookies, redirects, form posts), for tests that do not need Chromium.

/** A minimal cookie jar: name → value, from every Set-Cookie seen. */
export class CookieJar {
  private cookies = new Map<string, string>();

  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export interface PageStep {
  status: number;
  url: string;
  html: string;
}

function csrfOf(html: string): string {
  const m = /name="csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no csrf token in page:\n${html.slice(0, 500)}`);
  return m[1];
}

function formAction(html: string, suffix: string): string {
  const m = new RegExp(`action="([^"]*${suffix})"`).exec(html);
  if (!m) throw new Error(`no form posting to *${suffix} in page`);
  return m[1];
}

/**
 * Follows redirects until one leaves the server (the client's redirect URI, returned
 * as the final URL) or a page is shown (returned as HTML).
 */
export async function follow(jar: CookieJar, start: string, init: RequestInit = {}): Promise<{ redirect?: string; page?: PageStep }> {
  let url = start;
  let req: RequestInit = init;
  const origin = new URL(start).origin;
  for (let hops = 0; hops < 15; hops++) {
    const res = await fetch(url, {
      ...req,
      redirect: 'manual',
      headers: { ...(req.headers as Record<string, string>), cookie: jar.header() },
    });
    jar.store(res);
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      const next = new URL(location, url).toString();
      if (new URL(next).origin !== origin) return { redirect: next };
      url = next;
      req = {};
      continue;
    }
    return { page: { status: res.status, url, html: await res.text() } };
  }
  throw new Error('too many redirects');
}

export async function submit(jar: CookieJar, page: PageStep, suffix: string, fields: Record<string, string>) {
  const action = new URL(formAction(page.html, suffix), page.url).toString();
  const body = new URLSearchParams({ csrf: csrfOf(page.html), ...fields });
  return follow(jar, action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(page.url).origin },
    body: body.toString(),
  });
}

/**
 * Signs in and approves (or denies) the request at `authorizeUrl`; returns the URL the
 * server redirected the browser to (the client's redirect URI with code or error).
 */
export async function authorizeViaPages(
  authorizeUrl: string,
  user: { email: string; password: string },
  options: { decision?: 'approve' | 'deny'; jar?: CookieJar } = {},
): Promise<string> {
  const jar = options.jar ?? new CookieJar();
  let step = await follow(jar, authorizeUrl);
  if (step.page && /action="[^"]*\/login"/.test(step.page.html)) {
    step = await submit(jar, step.page, '/login', { email: user.email, password: user.password });
  }
  if (step.page && /action="[^"]*\/confirm"/.test(step.page.html)) {
    step = await submit(jar, step.page, '/confirm', { decision: options.decision ?? 'approve' });
  }
  if (!step.redirect) throw new Error(`flow stopped on a page (${step.page?.status}):\n${step.page?.html.slice(0, 1500)}`);
  return step.redirect;
}
