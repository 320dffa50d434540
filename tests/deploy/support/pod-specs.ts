// The pod templates of Deployments and Jobs, with their containers (init containers first).
import type { Manifest } from './kustomize.js';

type EnvVar = {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; configMapKeyRef?: { name: string; key: string } };
};
type Probe = { httpGet?: { path: string; port: string | number } };

/** The fields of a container the deploy tests read. */
export type Container = {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown>;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
};

type PodSpec = {
  securityContext?: Record<string, unknown>;
  automountServiceAccountToken?: boolean;
  initContainers?: Container[];
  containers: Container[];
};

export type PodTemplate = { name: string; labels: Record<string, string>; spec: PodSpec; containers: Container[] };

export function podSpecs(objects: Manifest[]): PodTemplate[] {
  return objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
    .map((o) => {
      const template = (o.spec as { template: { metadata: { labels: Record<string, string> }; spec: PodSpec } }).template;
      return {
        name: `${o.kind} ${o.metadata.name}`,
        labels: template.metadata.labels,
        spec: template.spec,
        containers: [...(template.spec.initContainers ?? []), ...template.spec.containers],
      };
    });
}
