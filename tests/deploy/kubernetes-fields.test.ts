// The Kubernetes schemas of kubernetes-models check types, formats and required fields
// but let unknown fields pass, as the API server drops them: a misspelt field (say
// `readinessprobe`) would vanish silently. Here every object of the base and the example
// overlay is type-checked as an object literal of its kubernetes-types type (Kubernetes
// 1.30), so TypeScript's excess-property check names any field the API does not have.
import path from 'node:path';
import ts from 'typescript';
import { render, type Manifest } from './support/kustomize.js';

const kube = path.resolve(import.meta.dirname, '../../deploy/kubernetes');
const TYPES: Record<string, string> = {
  'v1/Namespace': 'core/v1',
  'v1/ConfigMap': 'core/v1',
  'v1/Service': 'core/v1',
  'v1/ServiceAccount': 'core/v1',
  'apps/v1/Deployment': 'apps/v1',
  'batch/v1/Job': 'batch/v1',
  'policy/v1/PodDisruptionBudget': 'policy/v1',
  'autoscaling/v2/HorizontalPodAutoscaler': 'autoscaling/v2',
  'networking.k8s.io/v1/NetworkPolicy': 'networking/v1',
  'networking.k8s.io/v1/Ingress': 'networking/v1',
};

const GLOBALS = [
  'Array<T> { length: number; [n: number]: T }',
  'Boolean',
  'CallableFunction',
  'Function',
  'IArguments',
  'NewableFunction',
  'Number',
  'Object',
  'RegExp',
  'String',
];

/** TypeScript's complaints about `objects`, each with the object it concerns. */
function fieldErrors(objects: Manifest[]): string[] {
  const file = path.join(import.meta.dirname, '__manifests__.ts');
  const lib = path.join(import.meta.dirname, '__globals__.d.ts');
  const globals = GLOBALS.map((g) => `interface ${g.includes('{') ? g : `${g} {}`}`).join('\n');
  const names = objects.map((o) => `${o.kind} ${o.metadata.name}`);
  const source = objects
    .map((o, i) => {
      const module = TYPES[`${o.apiVersion}/${o.kind}`];
      if (!module) return `export const o${i}: never = 'no type here for ${o.apiVersion} ${o.kind}';`;
      return `import type { ${o.kind} as T${i} } from 'kubernetes-types/${module}.js';\nexport const o${i}: T${i} = ${JSON.stringify(o)};`;
    })
    .join('\n');
  const options: ts.CompilerOptions = {
    noEmit: true,
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noLib: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  const virtual: Record<string, string> = { [file]: source, [lib]: globals };
  host.getSourceFile = (name, language) => (name in virtual ? ts.createSourceFile(name, virtual[name]!, language) : read(name, language));
  const program = ts.createProgram([lib, file], options, host);
  return program.getSemanticDiagnostics(program.getSourceFile(file)).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    return `${names[Math.floor(line / 2)] ?? '?'}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

describe('deploy/kubernetes fields', () => {
  it('uses in the example overlay only fields the Kubernetes API has (and names one it lacks)', () => {
    const objects = render(path.join(kube, 'overlays/example'));
    const misspelt = structuredClone(objects.find((o) => o.kind === 'Deployment')!);
    misspelt.metadata.name = 'misspelt';
    (misspelt.spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec.containers[0]!.readinessprobe = {};
    expect(fieldErrors([...objects, misspelt])).toEqual([
      expect.stringMatching(/^Deployment misspelt: .*'"readinessprobe"' does not exist in type 'Container'/),
    ]);
  });
});
