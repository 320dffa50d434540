import { isMetaScope, splitScope } from './oauth-scopes.js';

/** One line of the consent page: what the application may do, in words, and the scopes behind it. */
export interface ConsentLine {
  text: string;
  scopes: string[];
}

export interface ConsentSection {
  title: string;
  lines: ConsentLine[];
}

const IDENTITY: Record<string, string> = {
  openid: 'Know who you are (your user id)',
  profile: 'See your name, team and roles',
  email: 'See your email address',
  offline_access: 'Stay signed in without asking you again (refresh tokens)',
};

const META: Record<string, string> = {
  all: 'Read and change everything your role allows, on every resource',
  'ir.all': 'Read and change everything your role allows on the incident-response side',
  'oc.all': 'Read and change everything your role allows on the on-call side',
};

const SIDES = { ir: 'Incident response', oc: 'On-call' } as const;

const resourceName = (resource: string) => {
  const words = resource.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * What a consent grants, in plain words (docs/oauth.md, "Login and consent pages"):
 * the identity scopes one by one, then per side each resource once, as "read" or "read
 * and change" (a write scope also reads, as the gateway applies it). Unknown scopes are
 * listed as they are.
 */
export function describeScopes(scope: string | undefined): ConsentSection[] {
  const identity: ConsentLine[] = [];
  const other: ConsentLine[] = [];
  const resources = new Map<string, Map<string, string[]>>(); // side → resource → scopes
  for (const s of splitScope(scope)) {
    const granular = /^(ir|oc)\.([a-z_]+):(read|write)$/.exec(s);
    if (IDENTITY[s]) identity.push({ text: IDENTITY[s], scopes: [s] });
    else if (isMetaScope(s)) other.push({ text: META[s], scopes: [s] });
    else if (granular) {
      const side = resources.get(granular[1]) ?? new Map<string, string[]>();
      resources.set(granular[1], side);
      side.set(granular[2], [...(side.get(granular[2]) ?? []), s]);
    } else other.push({ text: s, scopes: [s] });
  }
  const sections: ConsentSection[] = [];
  if (identity.length) sections.push({ title: 'Your identity', lines: identity });
  for (const [side, title] of Object.entries(SIDES)) {
    const entries = [...(resources.get(side) ?? [])];
    if (!entries.length) continue;
    sections.push({
      title,
      lines: entries.map(([resource, scopes]) => ({
        text: `${resourceName(resource)}: ${scopes.some((x) => x.endsWith(':write')) ? 'read and change' : 'read'}`,
        scopes,
      })),
    });
  }
  if (other.length) sections.push({ title: 'Other access', lines: other });
  return sections;
}

/** True when any line lets the application change data (shown as a warning). */
export function grantsWrites(sections: ConsentSection[]): boolean {
  return sections.some((s) => s.lines.some((l) => l.scopes.some((x) => x.endsWith(':write') || isMetaScope(x))));
}
