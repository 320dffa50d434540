import type { z } from 'zod';
import { BadRequestError, ConflictError, ValidationError, type ValidationIssue } from '@firewatch/errors';

function pointerOf(base: string, path: readonly PropertyKey[]): string {
  return [base, ...path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1'))].join('/');
}

/** zod issues as 422 issues located under `base` (e.g. `/data/attributes`). */
export function zodIssuesToValidation(issues: z.core.$ZodIssue[], base: string): ValidationIssue[] {
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ pointer: pointerOf(base, [...issue.path, key]), detail: `Unknown attribute "${key}".`, code: 'unknown_attribute' });
      }
      continue;
    }
    const where = issue.path.length ? issue.path.join('.') : base.split('/').pop();
    out.push({ pointer: pointerOf(base, issue.path), detail: `${where}: ${issue.message}`, code: issue.code });
  }
  return out;
}

/** Pointers of strings (values or keys) holding NUL, which PostgreSQL text cannot store. */
function nulPointers(value: unknown, pointer: string, out: string[]): string[] {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) out.push(pointer);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => nulPointers(v, `${pointer}/${i}`, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000')) out.push(pointer);
      else nulPointers(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
    }
  }
  return out;
}

/**
 * The one check that a body's `data.id` names the record of the path: 409 otherwise, as
 * JSON:API asks. `ids` are the record's names (the path's value, its UUID, its slug).
 */
export function assertDocumentId(id: unknown, ids: readonly string[]): void {
  if (typeof id !== 'string' || !ids.includes(id)) {
    throw new ConflictError('data.id does not match the id in the path.', { source: { pointer: '/data/id' }, code: 'id_mismatch' });
  }
}

interface ParseOptions<S extends z.ZodType> {
  type: string;
  attributes: S;
  /** For updates: the id from the path, which `data.id` must match when given. */
  ids?: string[];
}

/**
 * Validates a JSON:API request document: a `data` object of the expected `type`
 * (409 otherwise, as JSON:API asks), an optional matching `id`, and `attributes`
 * checked by the resource's strict zod schema (422 per issue, unknown ones included).
 */
export function parseRequestDocument<S extends z.ZodType>(body: unknown, options: ParseOptions<S>): z.infer<S> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new BadRequestError('The request body must be a JSON:API document: an object with "data".', { code: 'invalid_document' });
  }
  const data = (body as { data?: unknown }).data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw new ValidationError([{ pointer: '/data', detail: 'data must be a resource object.', code: 'invalid_document' }]);
  }
  const { type, id, attributes, ...rest } = data as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  if (type === undefined) issues.push({ pointer: '/data/type', detail: 'data.type is required.', code: 'required' });
  for (const key of Object.keys(rest)) {
    if (key !== 'relationships' && key !== 'meta') {
      issues.push({ pointer: `/data/${key}`, detail: `Unknown member "${key}" in data.`, code: 'unknown_member' });
    }
  }
  if (issues.length) throw new ValidationError(issues);
  if (type !== options.type) {
    throw new ConflictError(`data.type must be "${options.type}".`, { source: { pointer: '/data/type' }, code: 'type_mismatch' });
  }
  if (id !== undefined) {
    if (!options.ids)
      throw new ValidationError([{ pointer: '/data/id', detail: 'Client-generated ids are not supported.', code: 'client_id' }]);
    assertDocumentId(id, options.ids);
  }
  const nul = nulPointers(attributes, '/data/attributes', []);
  if (nul.length)
    throw new ValidationError(
      nul.map((pointer) => ({ pointer, detail: 'Text must not contain NUL characters.', code: 'invalid_characters' })),
    );
  const parsed = options.attributes.safeParse(attributes ?? {});
  if (!parsed.success) throw new ValidationError(zodIssuesToValidation(parsed.error.issues, '/data/attributes'));
  return parsed.data;
}
