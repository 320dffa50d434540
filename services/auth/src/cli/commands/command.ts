import type { CliContext } from '../cli-context.js';

/** One `firewatch <group> <action>` command; what `run` returns is printed as JSON. */
export interface Command {
  usage: string;
  summary: string;
  /** False for commands that need no database (help). */
  needsDatabase?: boolean;
  run(args: string[], ctx: CliContext): Promise<unknown>;
}

/** A JSON:API resource as one flat object, the shape the CLI prints. */
export function flatten(resource: { id: string; attributes: Record<string, unknown> }, extra: Record<string, unknown> = {}) {
  return { id: resource.id, ...resource.attributes, ...extra };
}

/** Users have integer ids; the CLI prints them as numbers. */
export function userView(resource: { id: string; attributes: Record<string, unknown> }) {
  return { ...flatten(resource), id: Number(resource.id) };
}
