import type { Visibility, VisibilityClause } from '@firewatch/resource-kit';

/**
 * A private incident is for its creator and the team's admins: anyone else, a team-wide
 * key included, finds neither it nor its timeline (404), nor counts it where others name
 * what it names (a severity's in-use refusal).
 */
export const privateToCreator: Visibility = (principal) => {
  if (principal.role === 'admin') return null;
  const clauses: VisibilityClause[] = [{ column: 'private', equals: false }];
  if (principal.user_id !== null) clauses.push({ column: 'created_by_user_id', equals: principal.user_id });
  return clauses;
};
