import { z } from 'zod';
import { ROLES } from '@firewatch/auth';
import { email, timeZone } from './users.schemas.js';

export const createTeamSchema = z.strictObject({ name: z.string().trim().min(1).max(255) });
export type CreateTeamInput = z.infer<typeof createTeamSchema>;

export const createUserSchema = z.strictObject({
  team_id: z.number().int().min(1).max(2_147_483_647),
  email,
  /** The full name; a person's splits into first and last name at the first blank. */
  name: z.string().trim().min(1).max(255),
  time_zone: timeZone.optional(),
  role: z.enum(ROLES).default('user'),
  on_call_role: z.enum(ROLES).default('user'),
  password: z.string().min(8).max(1024).optional(),
  is_service_account: z.boolean().default(false),
});
export type CreateUserInput = z.input<typeof createUserSchema>;

/** What `users update` may change; team, service-account flag and id are fixed. */
export const updateUserSchema = z
  .strictObject({
    email: email.optional(),
    name: z.string().trim().min(1).max(255).optional(),
    time_zone: timeZone.optional(),
    role: z.enum(ROLES).optional(),
    on_call_role: z.enum(ROLES).optional(),
    password: z.string().min(8).max(1024).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'name at least one attribute to change');
export type UpdateUserInput = z.input<typeof updateUserSchema>;
