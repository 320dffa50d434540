import { z } from 'zod';
import { apiServiceFields } from '@firewatch/config';

export const configSchema = z.object({
  ...apiServiceFields(8084),
  BODY_LIMIT: z.string().default('1mb'),
  /** Queue of auth's user events feeding the users read model (one per deployment). */
  USERS_QUEUE: z.string().min(1).default('on-call.users'),
});

export type Config = z.infer<typeof configSchema>;
