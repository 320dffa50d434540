// A small kustomize, enough for deploy/kubernetes: resources (files and directories),
// namespace, labels (metadata only), images, and strategic-merge patches of maps. Any other
// field, or a list in a patch, is refused rather than rendered differently from kustomize;
// kubernetes.test.ts compares the result with `kubectl kustomize` where kubectl exists.
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

/** One Kubernetes object, as parsed. */
export type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
};

type Kustomization = {
  resources?: string[];
  namespace?: string;
  labels?: { pairs: Record<string, string> }[];
  images?: { name: string; newName?: string; newTag?: string }[];
  patches?: { path: string }[];
};

const FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'patches']);
const CLUSTER_SCOPED = new Set(['Namespace']);

/** Every YAML document of `text`; `where` names it in errors. */
export function parseManifests(text: string, where: string): Manifest[] {
  return parseAllDocuments(text).map((doc) => {
    if (doc.errors.length) throw new Error(`${where}: ${doc.errors[0]!.message}`);
    return doc.toJS() as Manifest;
  });
}

/** Every YAML document of `file`. */
export function readManifests(file: string): Manifest[] {
  return parseManifests(fs.readFileSync(file, 'utf8'), file);
}

/** The files a kustomization lists that do not exist, with the kustomization's own path. */
export function missingFiles(dir: string): string[] {
  const k = readManifests(path.join(dir, 'kustomization.yaml'))[0] as unknown as Kustomization;
  const listed = [...(k.resources ?? []), ...(k.patches ?? []).map((p) => p.path)].map((f) => path.join(dir, f));
  return listed.flatMap((f) => (fs.existsSync(f) ? (fs.statSync(f).isDirectory() ? missingFiles(f) : []) : [f]));
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function merge(target: Record<string, unknown>, patch: Record<string, unknown>, where: string): void {
  for (const [key, value] of Object.entries(patch)) {
    if (Array.isArray(value)) throw new Error(`${where}: lists in patches are not rendered here (${key})`);
    if (isMap(value) && isMap(target[key])) merge(target[key], value, `${where}.${key}`);
    else target[key] = structuredClone(value);
  }
}

function setImages(node: unknown, images: NonNullable<Kustomization['images']>): void {
  if (Array.isArray(node)) return node.forEach((n) => setImages(n, images));
  if (!isMap(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'containers' || key === 'initContainers') && Array.isArray(value)) {
      for (const container of value as { image: string }[]) {
        const [name, tag] = container.image.split(':');
        const image = images.find((i) => i.name === name);
        if (image) container.image = `${image.newName ?? name}:${image.newTag ?? tag}`;
      }
    } else setImages(value, images);
  }
}

/** The objects `kubectl kustomize <dir>` prints, in the order of the kustomization's lists. */
export function render(dir: string): Manifest[] {
  const file = path.join(dir, 'kustomization.yaml');
  const k = readManifests(file)[0] as unknown as Kustomization;
  const unknown = Object.keys(k).filter((f) => !FIELDS.has(f));
  if (unknown.length) throw new Error(`${file}: not rendered here: ${unknown.join(', ')}`);
  const objects = (k.resources ?? []).flatMap((r) => {
    const at = path.join(dir, r);
    return fs.statSync(at).isDirectory() ? render(at) : readManifests(at);
  });
  for (const { path: p } of k.patches ?? []) {
    for (const patch of readManifests(path.join(dir, p))) {
      const target = objects.find((o) => o.kind === patch.kind && o.metadata.name === patch.metadata.name);
      if (!target) throw new Error(`${p}: no ${patch.kind} ${patch.metadata.name} to patch`);
      const { metadata, apiVersion, kind, ...rest } = patch;
      void apiVersion;
      void kind;
      merge(target, { ...rest, metadata: { ...metadata, name: target.metadata.name } }, `${p} ${patch.kind}`);
    }
  }
  for (const o of objects) {
    if (k.namespace && !CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
    for (const { pairs } of k.labels ?? []) o.metadata.labels = { ...o.metadata.labels, ...pairs };
  }
  if (k.images) setImages(objects, k.images);
  return objects;
}
