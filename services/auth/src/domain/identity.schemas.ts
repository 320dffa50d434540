import { z } from 'zod';
import { ROLES } from '@firewatch/auth';

export const createTeamSchema = z.strictObject({ name: z.string().trim().min(1).max(255) });
export type CreateTeamInput = z.infer<typeof createTeamSchema>;

export const createUserSchema = z.strictObject({
  team_id: z.number().int().min(1).max(2_147_483_647),
  // Lower-cased: the same address in another case is the same user.
  email: z
    .email()
    .max(320)
    .transform((e) => e.toLowerCase()),
  name: z.string().trim().min(1).max(255),
  role: z.enum(ROLES).default('user'),
  on_call_role: z.enum(ROLES).default('user'),
  password: z.string().min(8).max(1024).optional(),
  is_service_account: z.boolean().default(false),
});
export type CreateUserInput = z.input<typeof createUserSchema>;

/** What `users update` may change; team, service-account flag and id are fixed. */
export const updateUserSchema = z
  .strictObject({
    email: z
      .email()
      .max(320)
      .transform((e) => e.toLowerCase())
      .optional(),
    name: z.string().trim().min(1).max(255).optional(),
    role: z.enum(ROLES).optional(),
    on_call_role: z.enum(ROLES).optional(),
    password: z.string().min(8).max(1024).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'name at least one attribute to change');
export type UpdateUserInput = z.input<typeof updateUserSchema>;
