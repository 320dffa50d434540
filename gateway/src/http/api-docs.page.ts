// The /docs page: Swagger UI (swagger-ui-dist), its assets served by the gateway itself.
// The start-up script is a file of its own so the page needs no inline script.

/** Swagger UI's files the page loads, served from the installed swagger-ui-dist package. */
export const DOCS_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png', 'favicon-16x16.png'] as const;

export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Firewatch API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" sizes="32x32" href="/docs/assets/favicon-32x32.png">
  <link rel="icon" type="image/png" sizes="16x16" href="/docs/assets/favicon-16x16.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

// validatorUrl null: the default badge would send the document to a third-party validator.
export const DOCS_INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

/**
 * What the page may load: its own scripts and styles only, nothing from elsewhere.
 * Swagger UI sets inline styles and shows its icons as data: images, hence those two.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
