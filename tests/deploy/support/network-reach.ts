// Who may open a connection to a Deployment's pods on their port, by the NetworkPolicies
// of their namespace: 'outside' (a rule without `from`, or one naming namespaces or
// addresses), or the component of each pod a rule's podSelector admits.
import type { Manifest } from './kustomize.js';
import { podSpecs } from './pod-specs.js';

type Selector = {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
};
type Peer = { podSelector?: Selector; namespaceSelector?: Selector; ipBlock?: unknown };
type Policy = { podSelector: Selector; policyTypes?: string[]; ingress?: { from?: Peer[]; ports?: { port?: number | string }[] }[] };

function matches(selector: Selector, labels: Record<string, string>): boolean {
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  return (
    byLabel &&
    (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
      if (operator === 'In') return values.includes(labels[key]!);
      if (operator === 'NotIn') return !values.includes(labels[key]!);
      return operator === 'Exists' ? key in labels : !(key in labels);
    })
  );
}

/** The sources that reach `deployment`'s port, sorted; empty when none may. */
export function reachableFrom(objects: Manifest[], deployment: Manifest): string[] {
  const [target] = podSpecs([deployment]);
  const port = target!.containers[0]!.ports![0]!.containerPort;
  const pods = podSpecs(objects);
  const sources = new Set<string>();
  for (const policy of objects.filter((o) => o.kind === 'NetworkPolicy').map((o) => o.spec as Policy)) {
    if (!matches(policy.podSelector, target!.labels) || !(policy.policyTypes ?? ['Ingress']).includes('Ingress')) continue;
    for (const rule of policy.ingress ?? []) {
      if (rule.ports && !rule.ports.some((p) => p.port === port || p.port === 'http')) continue;
      if (!rule.from?.length) sources.add('outside');
      for (const peer of rule.from ?? []) {
        if (peer.namespaceSelector || peer.ipBlock || !peer.podSelector) sources.add('outside');
        else
          for (const pod of pods.filter((p) => matches(peer.podSelector!, p.labels)))
            sources.add(pod.labels['app.kubernetes.io/component'] ?? pod.name);
      }
    }
  }
  return [...sources].sort();
}
