interface PgError {
  code?: string;
  constraint?: string;
}

export function isUniqueViolation(err: unknown): boolean {
  return (err as PgError | null)?.code === '23505';
}

/** The violated unique constraint's name, or undefined when `err` is no unique violation. */
export function uniqueConstraintName(err: unknown): string | undefined {
  return isUniqueViolation(err) ? (err as PgError).constraint : undefined;
}
