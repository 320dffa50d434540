import type { KoaContextWithOIDC } from 'oidc-provider';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/**
 * Headers of every HTML page of the OAuth server (login, consent, messages, the
 * provider's error page): never cached, never framed, no scripts, no referrer.
 */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
};

/** A minimal, self-contained page shell shared by the login, consent and error pages. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Firewatch</title>
<style>
body{font-family:system-ui,sans-serif;background:#f5f5f7;margin:0;display:flex;justify-content:center}
main{background:#fff;margin:3rem 1rem;padding:2rem;border-radius:8px;max-width:28rem;width:100%;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin-top:0}label{display:block;margin:.8rem 0 .2rem}
input,select{width:100%;padding:.5rem;box-sizing:border-box;font-size:1rem}
button{padding:.6rem 1.2rem;font-size:1rem;margin:1rem .5rem 0 0;cursor:pointer}
.error{background:#fde8e8;color:#8a1c1c;padding:.6rem;border-radius:4px}
h2{font-size:1rem;margin:1rem 0 .3rem}ul.scopes{margin:0;padding-left:1.2rem;font-size:.95rem}
.warning{background:#fff4e0;color:#6b4200;padding:.6rem;border-radius:4px}
</style></head><body><main>${body}</main></body></html>`;
}

/**
 * The provider's error page for authorization requests that cannot be redirected back
 * (unknown client, unregistered redirect_uri): the RFC error code and its description.
 */
export function renderErrorPage(ctx: KoaContextWithOIDC, out: { error?: string; error_description?: string }): void {
  ctx.type = 'html';
  ctx.set({ ...PAGE_SECURITY_HEADERS });
  ctx.body = page(
    'Authorization failed',
    `<h1>Authorization failed</h1><p class="error" id="error-code">${escapeHtml(out.error)}</p>` +
      `<p id="error-description">${escapeHtml(out.error_description ?? '')}</p>` +
      '<p>Return to the application and start again.</p>',
  );
}
