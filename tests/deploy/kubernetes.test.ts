// deploy/kubernetes: every object of the base and of the rendered example overlay is valid
// against the Kubernetes API's schemas (offline, kubernetes-models) and keeps the rules of
// deploy/kubernetes/README.md: locked-down pods, probes, limits, Secrets only by reference,
// a Service, PodDisruptionBudget and autoscaler per Deployment, and ingress only as designed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { missingFiles, parseManifests, render, type Manifest } from './support/kustomize.js';
import { schemaError } from './support/kubernetes-schemas.js';
import { reachableFrom } from './support/network-reach.js';
import { podSpecs, type Container } from './support/pod-specs.js';

const root = path.resolve(import.meta.dirname, '../..');
const kube = path.join(root, 'deploy/kubernetes');
const base = render(path.join(kube, 'base'));
const overlay = render(path.join(kube, 'overlays/example'));

/** DESIGN.md §1: each process and its port. */
const PORTS: Record<string, number> = {
  gateway: 8080,
  auth: 8081,
  'incident-config': 8082,
  communications: 8083,
  'on-call': 8084,
  webhooks: 8085,
  'webhook-dispatcher': 8086,
};
/** Variables that carry keys or credentials: from Secrets only (README.md "Configuration"). */
const SECRET_VARIABLES = /^(.*_KEYS?|.*_SECRET|OIDC_JWKS|DATABASE_URL|AMQP_URL|REDIS_URL|.*_ADMIN_URL|.*ADMIN_DATABASE_URL|DEV_KEY_SEED)$/;

const of = (objects: Manifest[], kind: string) => objects.filter((o) => o.kind === kind);
const component = (o: Manifest) => o.metadata.labels?.['app.kubernetes.io/component'] ?? '';
const hasKubectl = !spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).error;
const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');

describe.each([
  ['base', base],
  ['overlays/example', overlay],
])('deploy/kubernetes/%s', (_name, objects) => {
  it('holds only objects valid against their kind’s Kubernetes schema', () => {
    expect(objects.length).toBeGreaterThan(30);
    expect(objects.map((o) => [o.kind, o.metadata.name, schemaError(o)]).filter(([, , error]) => error)).toEqual([]);
  });

  it('writes no Secret, and no key or credential into a ConfigMap or a container’s environment', () => {
    expect(of(objects, 'Secret')).toEqual([]);
    const inConfigMaps = of(objects, 'ConfigMap').flatMap((c) => Object.keys((c.data as object) ?? {}));
    expect(inConfigMaps.filter((key) => SECRET_VARIABLES.test(key))).toEqual([]);
    const literal = podSpecs(objects).flatMap(({ containers }) => containers.flatMap((c) => c.env ?? []));
    // A value composed of other variables ($(AUTH_DATABASE_URL) ...) holds no secret itself.
    const plain = literal.filter((e) => e.value !== undefined && e.value.replace(/[a-z-]+=\$\([A-Z_]+\)|\s/g, '') !== '');
    expect(plain.filter((e) => SECRET_VARIABLES.test(e.name) || /_URLS$/.test(e.name)).map((e) => e.name)).toEqual([]);
  });

  it('runs every container as the image’s numeric non-root user, read-only, unprivileged, limited', () => {
    const [, uid, gid] = /^USER (\d+):(\d+)$/m.exec(dockerfile)!;
    for (const { name, spec, containers } of podSpecs(objects)) {
      expect([name, spec.securityContext]).toEqual([
        name,
        expect.objectContaining({ runAsNonRoot: true, runAsUser: Number(uid), runAsGroup: Number(gid) }),
      ]);
      expect([name, spec.automountServiceAccountToken]).toEqual([name, false]);
      for (const c of containers) {
        expect([name, c.name, c.securityContext]).toEqual([
          name,
          c.name,
          expect.objectContaining({
            runAsNonRoot: true,
            runAsUser: Number(uid),
            readOnlyRootFilesystem: true,
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
            seccompProfile: { type: 'RuntimeDefault' },
          }),
        ]);
        for (const kind of ['requests', 'limits'] as const) {
          expect([name, c.name, kind, Object.keys(c.resources?.[kind] ?? {}).sort()]).toEqual([name, c.name, kind, ['cpu', 'memory']]);
        }
      }
    }
  });

  it('gives each process a Deployment on its port with /healthz and /readyz probes, a Service, a PodDisruptionBudget and an autoscaler', () => {
    const deployments = of(objects, 'Deployment');
    expect(deployments.map(component).sort()).toEqual(Object.keys(PORTS).sort());
    for (const d of deployments) {
      const name = component(d);
      const [{ containers, labels }] = podSpecs([d]);
      const [c] = containers as [Container];
      const port = c.ports?.find((p) => p.name === 'http')?.containerPort;
      expect([name, port, c.env?.find((e) => e.name === 'PORT')?.value]).toEqual([name, PORTS[name], String(PORTS[name])]);
      expect([name, c.livenessProbe?.httpGet, c.readinessProbe?.httpGet]).toEqual([
        name,
        { path: '/healthz', port: 'http' },
        { path: '/readyz', port: 'http' },
      ]);
      expect([name, c.image]).toEqual([name, expect.stringMatching(new RegExp(`firewatch/${name}:(?!latest)[\\w.-]+$`))]);
      expect(dockerfile).toContain(`FROM runtime AS ${name}\n`);
      const selects = (o: Manifest, selector: Record<string, string> | undefined) =>
        selector !== undefined && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels[k] === v);
      const service = of(objects, 'Service').find((s) => selects(s, (s.spec as { selector?: Record<string, string> }).selector));
      expect([name, (service?.spec as { ports: { port: number; targetPort: string }[] })?.ports]).toEqual([
        name,
        [expect.objectContaining({ port: PORTS[name], targetPort: 'http' })],
      ]);
      const budget = of(objects, 'PodDisruptionBudget').find((p) =>
        selects(p, (p.spec as { selector: { matchLabels: Record<string, string> } }).selector.matchLabels),
      );
      expect([name, budget?.metadata.name]).toEqual([name, d.metadata.name]);
      const hpa = of(objects, 'HorizontalPodAutoscaler').find(
        (h) => (h.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name === d.metadata.name,
      );
      expect([name, hpa?.spec]).toEqual([
        name,
        expect.objectContaining({ minReplicas: expect.any(Number), maxReplicas: expect.any(Number) }),
      ]);
      // The autoscaler owns the count; an apply would otherwise reset it.
      expect([name, (d.spec as { replicas?: number }).replicas]).toEqual([name, undefined]);
    }
  });

  it('reads configuration from ConfigMaps it defines', () => {
    const defined = new Set(of(objects, 'ConfigMap').map((c) => c.metadata.name));
    const used = podSpecs(objects).flatMap(({ containers }) =>
      containers.flatMap((c) => (c.envFrom ?? []).flatMap((e) => e.configMapRef?.name ?? [])),
    );
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((n) => !defined.has(n))).toEqual([]);
  });

  it('lets in from outside only the gateway and auth; the domain services only from the gateway', () => {
    const deny = of(objects, 'NetworkPolicy').find(
      (p) => JSON.stringify(p.spec) === JSON.stringify({ podSelector: {}, policyTypes: ['Ingress'] }),
    );
    expect(deny).toBeDefined();
    const reach = Object.fromEntries(of(objects, 'Deployment').map((d) => [component(d), reachableFrom(objects, d)]));
    expect(reach).toEqual({
      gateway: ['outside'],
      auth: ['outside'],
      'incident-config': ['gateway'],
      communications: ['gateway'],
      'on-call': ['gateway'],
      webhooks: ['gateway'],
      'webhook-dispatcher': [],
    });
  });

  it('provisions and migrates in a Job with scripts that exist, composing variables defined before them', () => {
    const [job] = of(objects, 'Job');
    const [{ containers }] = podSpecs([job!]);
    expect(containers.map((c) => c.command?.[1])).toEqual([
      'scripts/provision-databases.mjs',
      'scripts/provision-broker.mjs',
      'scripts/migrate.mjs',
    ]);
    for (const c of containers) {
      expect(fs.existsSync(path.join(root, c.command![1]!))).toBe(true);
      (c.env ?? []).forEach((e, i) => {
        const earlier = new Set((c.env ?? []).slice(0, i).map((x) => x.name));
        for (const [, ref] of (e.value ?? '').matchAll(/\$\(([A-Z_]+)\)/g))
          expect([c.name, e.name, ref, earlier.has(ref!)]).toEqual([c.name, e.name, ref, true]);
      });
    }
  });
});

describe('deploy/kubernetes, the files', () => {
  it('lists in every kustomization only files that exist', () => {
    expect(missingFiles(path.join(kube, 'overlays/example'))).toEqual([]);
  });

  it('documents in its README every Secret and key the manifests read', () => {
    const referenced: Record<string, Set<string>> = {};
    for (const { containers } of podSpecs(overlay)) {
      for (const e of containers.flatMap((c) => c.env ?? [])) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref) (referenced[ref.name] ??= new Set()).add(ref.key);
      }
    }
    const readme = fs.readFileSync(path.join(kube, 'README.md'), 'utf8');
    const documented: Record<string, Set<string>> = {};
    for (const [, name, args] of readme.matchAll(/create secret generic ([\w-]+)((?:\s*\\\n\s*--from-[a-z]+=[A-Z_]+=\S*)+)/g)) {
      documented[name!] = new Set([...args!.matchAll(/--from-[a-z]+=([A-Z_]+)=/g)].map(([, key]) => key!));
    }
    const sorted = (m: Record<string, Set<string>>) =>
      Object.fromEntries(
        Object.entries(m)
          .map(([k, v]) => [k, [...v].sort()])
          .sort(),
      );
    expect(sorted(documented)).toEqual(sorted(referenced));
  });

  // Without kubectl (it is not a dependency), the checks above ran on support/kustomize.ts's rendering alone.
  (hasKubectl ? it : it.skip)('renders the example overlay as kubectl kustomize does (skipped where kubectl is missing)', () => {
    const kubectl = spawnSync('kubectl', ['kustomize', path.join(kube, 'overlays/example')], { encoding: 'utf8' });
    const key = (o: Manifest) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    const byKey = (objects: Manifest[]) => Object.fromEntries(objects.map((o) => [key(o), o]));
    expect(kubectl.status).toBe(0);
    expect(byKey(overlay)).toEqual(byKey(parseManifests(kubectl.stdout, 'kubectl kustomize')));
  });

  it('names, as pnpm migrate, a script that exists', () => {
    const { scripts } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const [, file] = /^node (\S+)$/.exec(scripts.migrate!)!;
    expect(fs.existsSync(path.join(root, file!))).toBe(true);
  });
});
