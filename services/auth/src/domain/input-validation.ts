import type { z } from 'zod';
import { ValidationError } from '@firewatch/errors';

/**
 * Parses input that did not come through a JSON:API document (the CLI, internal
 * callers) with the same schemas, failing with the same 422 issues.
 */
export function validateInput<S extends z.ZodType>(schema: S, input: unknown, base = '/data/attributes'): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(
    result.error.issues.flatMap((issue) => {
      const keys = issue.code === 'unrecognized_keys' ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
      return keys.map((path) => ({
        pointer: [base, ...path.map(String)].join('/'),
        detail:
          issue.code === 'unrecognized_keys' ? `Unknown attribute "${path.join('.')}".` : `${path.join('.') || 'input'}: ${issue.message}`,
        code: issue.code === 'unrecognized_keys' ? 'unknown_attribute' : issue.code,
      }));
    }),
  );
}
