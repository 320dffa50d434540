import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A mistake in how the command was called: exit code 2 and a pointer to `help`. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** `node:util` parseArgs in strict mode, with its errors turned into usage errors. */
export function parse(args: string[], options: Options, positionals = 0): Parsed {
  let parsed: Parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: positionals > 0 }) as Parsed;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (parsed.positionals.length !== positionals) {
    throw new UsageError(`Expected ${positionals} argument(s), got ${parsed.positionals.length}.`);
  }
  return parsed;
}

export function str(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === 'string' ? v : undefined;
}

export function required(p: Parsed, name: string): string {
  const v = str(p, name);
  if (v === undefined || v === '') throw new UsageError(`--${name} is required.`);
  return v;
}

export function int(p: Parsed, name: string): number | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) > 2_147_483_647) throw new UsageError(`--${name} must be a positive integer.`);
  return Number(v);
}

export function requiredInt(p: Parsed, name: string): number {
  required(p, name);
  return int(p, name) as number;
}

/** A limit, or `default` to fall back to the gateway's configured default. */
export function limit(p: Parsed, name: string): number | null | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  if (v === 'default' || v === 'none') return null;
  return int(p, name);
}

export function list(p: Parsed, name: string): string[] | undefined {
  const v = str(p, name);
  return v === undefined
    ? undefined
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
}
