interface PgError {
  code?: string;
  constraint?: string;
}

export function isUniqueViolation(err: unknown): boolean {
  return (err as PgError | null)?.code === '23505';
}

export function isForeignKeyViolation(err: unknown): boolean {
  return (err as PgError | null)?.code === '23503';
}

export function uniqueConstraintName(err: unknown): string | undefined {
  return isUniqueViolation(err) ? (err as PgError).constraint : undefined;
}
