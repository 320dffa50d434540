// The Kubernetes API's schemas, offline: kubernetes-models' validators, by apiVersion and kind.
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { Manifest } from './kustomize.js';

type Model = { apiVersion: string; kind: string; new (data: never): { validate(): void } };
const MODELS: Model[] = [
  Namespace,
  ConfigMap,
  Service,
  ServiceAccount,
  Deployment,
  Job,
  PodDisruptionBudget,
  HorizontalPodAutoscaler,
  NetworkPolicy,
  Ingress,
] as unknown as Model[];

/** Why `manifest` is not a valid object of its kind, or null; a kind not listed here is refused. */
export function schemaError(manifest: Manifest): string | null {
  const model = MODELS.find((m) => m.apiVersion === manifest.apiVersion && m.kind === manifest.kind);
  if (!model) return `no schema here for ${manifest.apiVersion} ${manifest.kind}`;
  try {
    new model(manifest as never).validate();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
