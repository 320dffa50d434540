import { z } from 'zod';
import { apiServiceFields } from '@firewatch/config';

export const configSchema = z.object({
  ...apiServiceFields(8084),
  BODY_LIMIT: z.string().default('1mb'),
});

export type Config = z.infer<typeof configSchema>;
